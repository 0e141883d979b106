#!/usr/bin/python3
# Starts Debian's Ren'Py 8.0.3 (/usr/games/renpy) under bookworm's Python 3.11, unchanged.
# Ren'Py builds AST nodes whose end position lies before their start; Python 3.11's compile()
# rejects them ("AST node line range (628, 1) is not valid", upstream renpy/renpy#4544) and the
# game exits at start. This wrapper clamps those end positions in the AST given to compile() and
# then runs Ren'Py's own launcher. No Debian file is changed. docs/renpy.md section 2.
import ast
import builtins
import runpy
import sys

_compile = builtins.compile


def compile(source, *args, **kwargs):  # noqa: A001 - the builtin is replaced on purpose
    if isinstance(source, ast.AST):
        for n in ast.walk(source):
            ln = getattr(n, 'lineno', None)
            el = getattr(n, 'end_lineno', None)
            if ln is not None and el is not None and el < ln:
                n.end_lineno = ln
                el = ln
            if ln is not None and el == ln:
                co = getattr(n, 'col_offset', None)
                ec = getattr(n, 'end_col_offset', None)
                if co is not None and ec is not None and ec < co:
                    n.end_col_offset = co
    return _compile(source, *args, **kwargs)


builtins.compile = compile
LAUNCHER = '/usr/games/renpy'
sys.argv[0] = LAUNCHER
runpy.run_path(LAUNCHER, run_name='__main__')
