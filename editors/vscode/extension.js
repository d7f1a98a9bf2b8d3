// The toolexpect extension: the language, its grammar, and a client that starts
// `toolexpect server` (the Language Server of `pip install 'toolexpect[lsp]'`) over stdio.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const [command, ...args] = vscode.workspace
    .getConfiguration("toolexpect")
    .get("server.command", ["toolexpect", "server"])
    .map((part) => (folder ? part.replaceAll("${workspaceFolder}", folder) : part));
  client = new LanguageClient(
    "toolexpect",
    "toolexpect",
    { command, args, transport: TransportKind.stdio, options: { cwd: folder } },
    { documentSelector: [{ language: "toolexpect" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
