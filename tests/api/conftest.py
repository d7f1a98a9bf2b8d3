"""Shared setup of the Python API tests: pytester runs the plugin on temporary projects."""

pytest_plugins = ["pytester"]
