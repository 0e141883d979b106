#!/usr/bin/python3
# Starts Debian's Ren'Py 8.0.3 (/usr/games/renpy) under bookworm's Python 3.11, unchanged.
# Ren'Py builds AST nodes whose end position lies before their start; Python 3.11's compile()
# rejects them ("AST node line range (628, 1) is not valid", upstream renpy/renpy#4544) and the
# game exits at start. This wrapper clamps those end positions in the AST given to compile() and
# then runs Ren'Py's own launcher. No Debian file is changed. docs/renpy.md section 2.
#
# Two settings for the games compiled ahead (server/host/native/compiled.ts, docs/renpy.md §2):
#   YUMECAST_RENPY_BASE       runs the launcher with this copy of /usr/share/games/renpy as its
#                             base (the launcher names the Debian folder; the copy holds .rpyc)
#   YUMECAST_RENPY_WRITE_RPYC writes each .rpy's compiled .rpyc beside it, as upstream Ren'Py
#                             does and Debian's package does not (set only for the `compile`
#                             command, in a writable copy); the game then loads them instead of
#                             parsing ~100 scripts at every start
import ast
import builtins
import hashlib
import importlib.abc
import importlib.machinery
import os
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


def write_rpyc(script):
    """Script.load_file also writes the .rpyc of a parsed .rpy (upstream's format: slot 1 before
    the static transforms, slot 2 after, the source's md5 last). Methods of the class are replaced,
    not module globals: Ren'Py pickles its modules' globals."""
    load_file = script.Script.load_file
    static_transforms = script.Script.static_transforms
    before = []

    def transforms(self, stmts):
        before.append(script.dumps(({'version': script.script_version, 'key': self.key or 'unlocked'}, stmts)))
        return static_transforms(self, stmts)

    def load(self, dir, fn):  # noqa: A002 - Ren'Py's own parameter names
        del before[:]
        data, stmts = load_file(self, dir, fn)
        if dir and fn.endswith('.rpy') and data is not None and stmts and len(before) == 1:
            full = dir + '/' + fn
            with open(full + 'c', 'wb') as f:
                self.write_rpyc_header(f)
                self.write_rpyc_data(f, 1, before[0])
                self.write_rpyc_data(f, 2, script.dumps((data, stmts)))
                with open(full, 'rb') as src:
                    self.write_rpyc_md5(f, hashlib.md5(src.read()).digest())
        return data, stmts

    script.Script.static_transforms = transforms
    script.Script.load_file = load


class _PatchScript(importlib.abc.MetaPathFinder):
    """Patches renpy.script as the launcher imports it."""

    def find_spec(self, name, path, target=None):
        if name != 'renpy.script':
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def run(module):
            exec_module(module)
            write_rpyc(module)

        spec.loader.exec_module = run
        return spec


if os.environ.get('YUMECAST_RENPY_WRITE_RPYC') == '1':
    sys.meta_path.insert(0, _PatchScript())

LAUNCHER = '/usr/games/renpy'
source = open(LAUNCHER, encoding='utf-8').read()
base = os.environ.get('YUMECAST_RENPY_BASE')
if base:
    named = 'renpy_base = "/usr/share/games/renpy"'
    if source.count(named) != 1:
        sys.exit('renpy-py311.py: the launcher no longer names its base as expected')
    source = source.replace(named, 'renpy_base = ' + repr(base))
sys.argv[0] = LAUNCHER
# Ren'Py's bootstrap looks up the launcher's functions on __main__: run it as this module.
globals()['__file__'] = LAUNCHER
exec(_compile(source, LAUNCHER, 'exec'), globals())
