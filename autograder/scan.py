"""A static look at answer cells of the exercises that must be written by hand.

The sandbox also guards the library routines at run time, but everything inside the student's
process can be undone from inside it. This scan needs no cooperation from that process: an
answer that names a built-in attention routine, or the introspection and code-loading tools
needed to reach one in disguise, is not accepted for those items.
"""
from __future__ import annotations

import io
import tokenize
from typing import List

# Attribute or imported names that do the exercise in one call.
ROUTINES = {"scaled_dot_product_attention", "_scaled_dot_product_attention_math", "MultiheadAttention",
            "multi_head_attention_forward", "_native_multi_head_attention"}
# Names that reach code or objects indirectly; none is needed to write attention by hand.
INDIRECTION = {"exec", "eval", "compile", "__import__", "importlib", "getattr", "globals", "vars",
               "gc", "ctypes", "inspect", "sys", "ops", "_C", "__kwdefaults__", "__closure__", "__globals__",
               "__code__", "__dict__", "__builtins__", "__getattribute__", "__wrapped__", "marshal", "pickle",
               "codecs", "base64", "subprocess", "os"}


def not_by_hand(source: str) -> List[str]:
    """Names in `source` (outside comments and strings) that an answer written by hand does not use."""
    found: List[str] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    previous = ""
    line_starts_import = False
    for tok in tokens:
        if tok.type == tokenize.NEWLINE:
            line_starts_import = False
        if tok.type != tokenize.NAME:
            if tok.type == tokenize.OP:
                previous = tok.string
            continue
        if tok.string in ("import", "from"):
            line_starts_import = True
        name = tok.string
        imported_or_attribute = previous == "." or line_starts_import
        if (name in ROUTINES and imported_or_attribute) or name in INDIRECTION:
            if name not in found:
                found.append(name)
        previous = name
    return found
