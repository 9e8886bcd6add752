"""Handler of the `test_audio_content` tool: Returns audio.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from mcp.types import AudioContent

from everything._generated.models import TestAudioContentInput

SILENCE = (
    "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA="  # a WAV file with no samples
)


def test_audio_content(args: TestAudioContentInput) -> list[AudioContent]:
    """Returns audio."""
    return [AudioContent(type="audio", data=SILENCE, mime_type="audio/wav")]
