"""A GraphQL document's minified form, read by the lexer alone and within a token limit.

Trusted documents and persisted queries need a canonical form of a document without
parsing it: an unregistered document must be refused before the parser sees it (a parse of
25,000 nested selections held the event loop for seconds). The lexer reads at most
`max_tokens + 1` tokens (comments count, as the request's token limit counts them), so the
work is bounded by the limit, never by the document.

The form is graphql-core's `strip_ignored_characters` (no whitespace, comments or commas
beyond what separates two names): the same for every spacing of one document.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from graphql import GraphQLSyntaxError, Source, TokenKind
from graphql.language import Lexer
from graphql.language.block_string import print_block_string
from graphql.language.lexer import is_punctuator_token_kind

T = TypeVar("T")
# Long texts are lexed here, one at a time: each thread holding the interpreter lock makes
# the event loop wait for it in turn, so several at once slowed every other request.
_LEXER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fabric-lexer")


async def off_loop(work: Callable[..., T], *args: object) -> T:
    """`work(*args)` in the lexer thread (parsing or minifying a long text)."""
    return await asyncio.get_running_loop().run_in_executor(_LEXER, work, *args)


def minified(text: str, max_tokens: int) -> str | None:
    """`text` without ignored characters, or None when it holds more than `max_tokens`
    tokens or does not lex (either way it cannot be a document the gateway runs)."""
    lexer = Lexer(Source(text))
    parts: list[str] = []
    position = count = 0
    after_name = False  # two names, numbers or strings in a row need a space between them
    try:
        while True:
            # read_next_token, not advance: advance skips a whole run of comments at once.
            token = lexer.read_next_token(position)
            position = token.end
            if token.kind is TokenKind.EOF:
                return "".join(parts)
            count += 1
            if count > max_tokens:
                return None
            if token.kind is TokenKind.COMMENT:
                continue
            punctuator = is_punctuator_token_kind(token.kind)
            if after_name and (not punctuator or token.kind is TokenKind.SPREAD):
                parts.append(" ")
            if token.kind is TokenKind.BLOCK_STRING:
                parts.append(print_block_string(token.value or "", minimize=True))
            else:
                parts.append(text[token.start : token.end])
            after_name = not punctuator
    except GraphQLSyntaxError:
        return None
