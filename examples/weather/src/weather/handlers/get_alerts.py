"""Handler of the `get_alerts` tool: example alerts for a few states, so it runs offline.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from weather._generated.models import GetAlertsInput

SEVERITIES = ("minor", "moderate", "severe", "extreme")
ALERTS = {
    "CA": [("moderate", "Wind advisory for the coastal hills until 18:00.")],
    "TX": [
        ("severe", "Severe thunderstorm warning for Travis County until 21:00."),
        ("minor", "Heat advisory in effect through Friday."),
    ],
    "FL": [("extreme", "Hurricane warning for the Keys.")],
}


async def get_alerts(args: GetAlertsInput) -> str:
    """The state's alerts at or above `args.min_severity`, one per line."""
    threshold = SEVERITIES.index(args.min_severity)
    alerts = [
        f"[{severity}] {text}"
        for severity, text in ALERTS.get(args.state, [])
        if SEVERITIES.index(severity) >= threshold
    ]
    return "\n".join(alerts) if alerts else f"No active alerts for {args.state}."
