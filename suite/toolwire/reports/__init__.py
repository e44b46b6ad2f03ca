"""Reports from results files: Markdown, the HTML matrix, badges, bugs found, diffs, scoring."""
