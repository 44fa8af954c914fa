"""Move generation against the rule texts, independent generators and other engines."""
