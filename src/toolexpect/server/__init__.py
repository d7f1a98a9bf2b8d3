"""``toolexpect server``: a Language Server for ``.expect`` files (needs ``toolexpect[lsp]``).

Built on pygls and lsprotocol; it reuses the pipeline as it is (parse, validate, lint, the tool
catalogue checks, the formatter) and adds only what an editor needs on top, one module each:

* :mod:`~toolexpect.server.app`: the server and the wiring of the features to the protocol.
* :mod:`~toolexpect.server.analysis`: one document through lint (and the catalogue checks).
* :mod:`~toolexpect.server.documents`: open documents' analyses, debounced diagnostics.
* :mod:`~toolexpect.server.positions`: spans to LSP ranges (lines, UTF-16 units).
* :mod:`~toolexpect.server.diagnostics`: diagnostics to LSP diagnostics.
* :mod:`~toolexpect.server.formatting`: whole-document formatting.
* :mod:`~toolexpect.server.context`: where the cursor stands, for completion and hover.
* :mod:`~toolexpect.server.completion`: keywords, matchers, tools and their parameters.
* :mod:`~toolexpect.server.toolinfo`: a tool's parameters, types and descriptions.
* :mod:`~toolexpect.server.hover`: the schema of the tool or argument under the cursor.
* :mod:`~toolexpect.server.symbols`: cases and their statements for the outline.

Import from the modules: this one imports nothing, so that the command line can say that
pygls is missing instead of failing on import.
"""
