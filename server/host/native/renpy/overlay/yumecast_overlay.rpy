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

    config.interact_callbacks.append(_yumecast_still_redraw)
