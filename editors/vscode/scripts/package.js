// Package the extension as a .vsix (not published anywhere): copy the grammar of
// editors/textmate into syntaxes/, then run vsce. Usage: npm run package [-- --out FILE]
"use strict";

const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

const here = path.resolve(__dirname, "..");
fs.mkdirSync(path.join(here, "syntaxes"), { recursive: true });
fs.copyFileSync(
  path.join(here, "..", "textmate", "toolexpect.tmLanguage.json"),
  path.join(here, "syntaxes", "toolexpect.tmLanguage.json"),
);
const vsce = path.join(here, "node_modules", "@vscode", "vsce", "vsce");
execFileSync(
  process.execPath,
  [vsce, "package", "--allow-missing-repository", "--skip-license", ...process.argv.slice(2)],
  { cwd: here, stdio: "inherit" },
);
