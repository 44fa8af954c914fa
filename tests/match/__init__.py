"""The match runner: refereeing, statistics, a cluster of workers and real peers."""
