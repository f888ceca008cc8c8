"""What the screens show, as typed rows, and the pure functions that build them from the services'
read models (no screen state): one module a screen, beside the shared rows of app.ui.toolkit.rows."""
