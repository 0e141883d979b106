# Yumecast's overlay for a Ren'Py game streamed by the game host (server/host/native/).
# The host puts this folder on RENPY_SEARCHPATH; the game itself is not changed. With the
# script_version.txt beside it, Ren'Py runs with developer mode off (no console, no reload).
# Here:
#   - keys that would change the host rather than the game are unbound: screenshot (writes a
#     file into the game's folder), fullscreen (the window must keep its size: the stream
#     captures its rectangle), self-voicing (spawns a speech program), the editor, the
#     inspector, reload, the renderer chooser;
#   - the player's VN buttons get keys (server/host/native/keymap.ts): F6 auto, F7 save, F8 load;
#   - a still screen is not redrawn every 0.2 s: the stream sends a picture only when it changes,
#     and each redraw costs the host's CPU (llvmpipe, no GPU).
init 999 python:
    for _yc_name in ('screenshot', 'toggle_fullscreen', 'self_voicing', 'clipboard_voicing',
                     'debug_voicing', 'launch_editor', 'reload_game', 'inspector', 'full_inspector',
                     'developer', 'choose_renderer', 'progress_screen', 'help', 'iconify', 'director',
                     'console', 'profile_once', 'memory_profile', 'dump_styles', 'image_load_log'):
        if _yc_name in config.keymap:
            config.keymap[_yc_name] = [ ]

    config.keymap['toggle_afm'] = [ 'K_F6' ]
    config.keymap['yumecast_save'] = [ 'K_F7' ]
    config.keymap['yumecast_load'] = [ 'K_F8' ]
    config.underlay.append(renpy.Keymap(yumecast_save=ShowMenu('save'), yumecast_load=ShowMenu('load')))

    def _yumecast_still_redraw():
        draw = renpy.display.draw
        if draw is not None and hasattr(draw, 'redraw_period'):
            draw.redraw_period = 5.0
        # the window keeps its size and place (the stream captures that rectangle); the host runs
        # the game with RENPY_VARIANT=large, which hides the Display choice, and this undoes any
        # other way to fullscreen
        if _preferences.fullscreen:
            _preferences.fullscreen = False

    config.interact_callbacks.append(_yumecast_still_redraw)

# The game's text for the player's transcript and captions (docs/play-text.md): each line shown,
# each menu's choices, and `clear` when no line is on screen any more (the main menu, a load), as JSON lines appended to the file the host names in
# YUMECAST_TEXT_FILE (native/text.ts reads it). Text tags are removed, substitutions made, and the
# translation of the running language used (Ren'Py translates names and choices at display).
init 999 python:
    import json as _yc_json
    import os as _yc_os

    _yc_text_file = _yc_os.environ.get('YUMECAST_TEXT_FILE')

    def _yc_emit(obj):
        if not _yc_text_file:
            return
        try:
            with open(_yc_text_file, 'a', encoding='utf-8') as f:
                f.write(_yc_json.dumps(obj, ensure_ascii=False) + '\n')
        except Exception:
            pass

    def _yc_plain(s):
        if s is None:
            return None
        try:
            s = renpy.substitute(str(s))
        except Exception:
            s = str(s)
        try:
            return renpy.filter_text_tags(s, allow=[])
        except Exception:
            return s

    _yc_do_display = renpy.character.ADVCharacter.do_display

    # Whether a line (or the choice taken) was reported since the last `clear`: one clear, not one
    # per interaction of the main menu.
    _yc_shown = [False]

    def _yc_clear():
        if _yc_shown[0]:
            _yc_shown[0] = False
            _yc_emit({'t': 'clear'})

    # The main menu (back from the game or at its end) shows no line; a load re-runs its say
    # statement, so its line follows the clear.
    def _yc_clear_on_main_menu():
        if main_menu:
            _yc_clear()

    config.interact_callbacks.append(_yc_clear_on_main_menu)
    config.after_load_callbacks.append(_yc_clear)

    def _yc_display_line(self, who, what, **kwargs):
        _yc_shown[0] = True
        _yc_emit({'t': 'line', 'name': _yc_plain(who) if who else None, 'text': _yc_plain(what)})
        return _yc_do_display(self, who, what, **kwargs)

    renpy.character.ADVCharacter.do_display = _yc_display_line

    _yc_menu = menu

    def _yc_menu_with_text(items, *args, **kwargs):
        labels = [ _yc_plain(label) for (label, value) in items if value is not None ]
        _yc_emit({'t': 'choices', 'choices': labels})
        rv = _yc_menu(items, *args, **kwargs)
        for (label, value) in items:
            if value is not None and getattr(value, 'value', value) == rv:
                _yc_shown[0] = True
                _yc_emit({'t': 'chosen', 'text': _yc_plain(label)})
                break
        _yc_emit({'t': 'choices', 'choices': []})
        return rv

    menu = _yc_menu_with_text

    # Digits 1-9 pick the n-th choice of a menu on screen (the player's transcript panel offers the
    # choices as buttons that send them, as for every title).
    def _yc_choose(n):
        screen = renpy.get_screen('choice')
        if screen is None:
            return None
        items = screen.scope.get('items') or []
        if n < len(items) and items[n].action is not None:
            return renpy.run(items[n].action)
        return None

    for _yc_n in range(1, 10):
        config.keymap['yumecast_choice_%d' % _yc_n] = [ 'K_%d' % _yc_n ]
    config.underlay.append(renpy.Keymap(**dict(('yumecast_choice_%d' % _yc_n, Function(_yc_choose, _yc_n - 1)) for _yc_n in range(1, 10))))
