"""Rendering for people and machines: the only place that formats text."""
