"""Rendering: Manifest → RenderPlan. Pure: nothing here touches the disk."""
