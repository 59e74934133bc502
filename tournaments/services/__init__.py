"""Every write of the tournaments app goes through a service in this package."""
