"""The load benchmark's driver sends only event handlers the app registers: it checks them before
it connects, and a missing one stops it with a message naming the handler (the server would only
log 'No registered handler found for event' and answer nothing)."""
from __future__ import annotations

import socket

import pytest

from app import bench_load
from app.bench_load import HANDLERS, Handler, MissingHandlers, wire_names


def test_every_handler_the_driver_sends_is_registered_under_its_wire_name() -> None:
    import importlib

    from reflex_base.registry import RegistrationContext

    wire = wire_names()
    registered = RegistrationContext.get().event_handlers
    assert set(wire.events) == set(HANDLERS)
    for handler in HANDLERS:
        state = getattr(importlib.import_module(handler.module), handler.state)
        assert wire[handler] == f"{state.get_full_name()}.{handler.name}"
        assert wire[handler] in registered
        assert handler.name in state.event_handlers
        assert wire.states[handler] == state.get_full_name()


def test_the_sign_in_sends_the_form_and_no_handler_the_screen_dropped() -> None:
    assert bench_load.SIGN_IN.name == "signin" and bench_load.SET_PASSWORD.name == "set_typed_password"
    with pytest.raises(MissingHandlers) as raised:
        wire_names((bench_load.SET_EMAIL, Handler("app.ui.states.login", "LoginState", "set_password"),
                    Handler("app.ui.states.no_such_screen", "NoSuchState", "on_load")))
    message = str(raised.value)
    assert "LoginState.set_password" in message and "NoSuchState.on_load" in message
    assert "set_email" not in message
    assert [h.label for h in raised.value.missing] == ["LoginState.set_password", "NoSuchState.on_load"]


def test_bench_load_stops_before_connecting_when_a_handler_is_missing(monkeypatch, capsys) -> None:
    gone = Handler("app.ui.states.holdings", "HoldingsState", "on_load_everything")
    monkeypatch.setattr(bench_load, "HANDLERS", (*HANDLERS, gone))
    with socket.socket() as probe:  # a port nothing listens on: the run must not get that far
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = bench_load.bench_load(url=f"http://127.0.0.1:{port}", advisers=1, rps=1, seconds=1, warmup=0)
    out, err = capsys.readouterr()
    assert code == 2
    assert "HoldingsState.on_load_everything" in err and "No registered handler found for event" in err
    assert "load:" not in out and "not answering" not in err
