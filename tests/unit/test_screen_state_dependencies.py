"""A screen's computed vars must not depend on the frame's state (AppState): every state that does
is loaded, recomputed and stored again on every event of every screen (with Redis, a fetch and a
write of each per click). Screens read the viewer's role from their own `viewer_role` (Viewer)."""
import app.app  # noqa: F401  (every screen state, as the app registers them)
from app.ui.states.base import AppState
from reflex.istate.manager.redis import StateManagerRedis


def test_no_screen_computed_var_depends_on_the_frame():
    frame = AppState.get_full_name()
    outside = {var: sorted(f"{state.rsplit('.', 1)[-1]}.{name}" for state, name in dependents if state != frame)
               for var, dependents in AppState._var_dependencies.items()}
    assert {var: who for var, who in outside.items() if who} == {}


def test_an_event_loads_only_its_own_screen_and_the_frame():
    manager = StateManagerRedis.__new__(StateManagerRedis)  # only its planning of what to fetch is used
    for screen in AppState.get_substates():
        required = manager._get_required_state_classes(screen, subclasses=True)
        assert {state.__name__ for state in required} <= {"State", "AppState", screen.__name__}, screen.__name__
