"""Reports: the only place that formats text for people or machines."""
