"""Tool catalogues: the tools an application offers its model, read into one typed form.

A catalogue is read from an OpenAI ``tools`` list (Chat Completions or the flat
Responses-API form), an Anthropic ``tools`` list, an MCP ``tools/list`` result (bare or
inside a JSON-RPC response), each as JSON or YAML, or from a Python module whose public
functions are the tools. The Python module is read with ``ast``: its signatures and type
annotations are parsed statically and none of its code runs.

Anything that cannot be read raises ``CatalogueError``, which carries one ``T505``
diagnostic naming the file and what was expected.
"""

from __future__ import annotations

from toolexpect.catalogue.load import FORMATS, catalogue_from_data, load_catalogue, parse_catalogue
from toolexpect.catalogue.model import Catalogue, CatalogueError, Tool
from toolexpect.catalogue.python import parse_python_catalogue

__all__ = [
    "FORMATS",
    "Catalogue",
    "CatalogueError",
    "Tool",
    "catalogue_from_data",
    "load_catalogue",
    "parse_catalogue",
    "parse_python_catalogue",
]
