"""The ``.expect`` language: text → document, lark's errors → diagnostics, and the formatter.

* :mod:`~toolexpect.language.grammar`: finds ``toolexpect.lark``, builds lark's LALR parser once
  (cached in the user's cache folder), and reads names and patterns off it.
* :mod:`~toolexpect.language.layout`: the post-lexer (where a new line ends nothing; nesting bound).
* :mod:`~toolexpect.language.transform`: lark's Transformer, run as lark parses, to the document.
* :mod:`~toolexpect.language.pieces`: scalar tokens to values, lists and objects folded item by item.
* :mod:`~toolexpect.language.context`: what one parse collects (comments, problems), per call.
* :mod:`~toolexpect.language.strings`: string and number tokens to values.
* :mod:`~toolexpect.language.errors`: lark's syntax errors to diagnostics.
* :mod:`~toolexpect.language.parse`: :func:`parse_text`, the entry point.
* :mod:`~toolexpect.language.write`: the one writer of spec text (values, names, calls, requirements).
* :mod:`~toolexpect.language.format`: document (and comments) to canonical text.

Only this package imports lark. Import from the modules: this one imports nothing, so that
reading a JSON or YAML spec does not load lark.
"""
