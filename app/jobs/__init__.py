"""Background work: RQ on Redis when REDIS_URL is set, in-process threads otherwise."""
