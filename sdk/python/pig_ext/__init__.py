"""pig_ext: write pig extensions in Python (pig-ext/1, docs/extension-protocol.md).

Standard library only. See sdk/python/README.md.
"""
__version__ = "0.1.0"

from .context import Context  # noqa: E402
from .exec import ExecResult  # noqa: E402
from .extension import Extension  # noqa: E402
from .peer import RpcError  # noqa: E402
from .results import (  # noqa: E402
    BeforeAgentStartResult, BoundaryResult, Cancel, ContextResult, CustomDraft, CustomMessage, CustomMessageDraft,
    InputContinue, InputHandled, InputTransform, MessageEndResult, MessagesResult, ToolCallResult, ToolResult,
    ToolResultPatch, block, text,
)

__all__ = [
    "Extension", "Context", "ExecResult", "RpcError", "BeforeAgentStartResult", "BoundaryResult", "Cancel",
    "ContextResult", "CustomDraft", "CustomMessage", "CustomMessageDraft", "InputContinue", "InputHandled",
    "InputTransform", "MessageEndResult", "MessagesResult", "ToolCallResult", "ToolResult", "ToolResultPatch",
    "block", "text",
]
