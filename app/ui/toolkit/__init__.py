"""The screen toolkit: what every screen state shares (the on_load preamble and the error funnel,
confirm / upload / form dialogs, paging and sorting, shared row types). Screen states live in
app.ui.states; figures as the screens show them in app.ui.display."""
