"""The version of toolexpect, alone, so that any module can read it without the package face."""

__version__ = "0.1.0"
