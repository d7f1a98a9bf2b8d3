// The toolexpect extension: the language, its grammar, and a client that starts
// `toolexpect server` (the Language Server of `pip install 'toolexpect[lsp]'`) over stdio.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace
    .getConfiguration("toolexpect")
    .get("server.command", ["toolexpect", "server"]);
  client = new LanguageClient(
    "toolexpect",
    "toolexpect",
    { command, args, transport: TransportKind.stdio },
    { documentSelector: [{ language: "toolexpect" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
