"""Live progress events: Redis pub/sub when REDIS_URL is set, an in-process bus otherwise.

A topic is a string such as "bulk-run:42" or "firm:3"; an event is a JSON-able dict, e.g.
{"event": "investment calculated", "run_id": 42, "investment_id": 7, "done": 10, "failed": 0,
"total": 120}. Subscribers get the events published after they subscribed; what matters for
correctness is in the database (the bulk run row), the events only make screens move at once.
"""
from __future__ import annotations

import json
import queue as _queue
import threading
import time
from typing import Any

from app.settings import settings

PREFIX = "wa:"

_lock = threading.Lock()
_local: dict[str, list[_queue.Queue]] = {}


_clients: dict[str, Any] = {}


def _redis():
    """One Redis client per process (it pools its connections)."""
    client = _clients.get(settings.redis_url)
    if client is None:
        from redis import Redis

        client = _clients[settings.redis_url] = Redis.from_url(settings.redis_url)
    return client


def publish(topic: str, event: dict[str, Any]) -> None:
    publish_many([topic], [event])


def publish_many(topics: list[str], events: list[dict[str, Any]]) -> None:
    """Publishes every event on every topic (one round trip to Redis for all of them)."""
    if not events:
        return
    if settings.redis_url:
        pipe = _redis().pipeline(transaction=False)
        for event in events:
            data = json.dumps(event, default=str)
            for topic in topics:
                pipe.publish(PREFIX + topic, data)
        pipe.execute()
        return
    for topic in topics:
        with _lock:
            subscribers = list(_local.get(topic, ()))
        for q in subscribers:
            for event in events:
                q.put(event)


class Subscription:
    """Events of some topics; `get(timeout)` returns the next one or None. Close it when done."""

    def __init__(self, *topics: str) -> None:
        self.topics = topics
        self._pubsub = None
        self._queue: _queue.Queue | None = None
        if settings.redis_url:
            from redis import Redis

            self._client = Redis.from_url(settings.redis_url)
            self._pubsub = self._client.pubsub()
            self._pubsub.subscribe(*(PREFIX + t for t in topics))
            # Wait for Redis to confirm every subscription, so no event published after this
            # constructor returns can be missed.
            confirmed = 0
            deadline = time.monotonic() + 5
            while confirmed < len(topics) and time.monotonic() < deadline:
                message = self._pubsub.get_message(timeout=0.5)
                if message is not None and message.get("type") == "subscribe":
                    confirmed += 1
        else:
            self._queue = _queue.Queue()
            with _lock:
                for topic in topics:
                    _local.setdefault(topic, []).append(self._queue)

    def get(self, timeout: float = 1.0) -> dict[str, Any] | None:
        if self._pubsub is not None:
            deadline = time.monotonic() + timeout
            while True:
                message = self._pubsub.get_message(timeout=max(0.0, deadline - time.monotonic()))
                if message is not None and message.get("type") == "message":
                    return json.loads(message["data"])
                if time.monotonic() >= deadline:
                    return None
        try:
            return self._queue.get(timeout=timeout)
        except _queue.Empty:
            return None

    def close(self) -> None:
        if self._pubsub is not None:
            self._pubsub.close()
            self._client.close()
            self._pubsub = None
        elif self._queue is not None:
            with _lock:
                for topic in self.topics:
                    subscribers = _local.get(topic, [])
                    if self._queue in subscribers:
                        subscribers.remove(self._queue)
                    if not subscribers:
                        _local.pop(topic, None)
            self._queue = None

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def subscribe(*topics: str) -> Subscription:
    return Subscription(*topics)
