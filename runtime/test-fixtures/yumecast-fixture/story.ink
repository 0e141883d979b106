// Engine test fixture: uses every tag of docs/vn-engine.md.
# bgm: theme
# transition: fade
# scene: station
夏の終わり、海辺の小さな駅。ホームには誰もいない……はずだった。
# char: hana normal center
# speaker: hana
「こんにちは。あなたも、列車を待っているの？」
# se: chime
遠くで、駅のチャイムが鳴った。 # effect: sakura
# char: hana smile left
# char: ren normal right
# speaker: ren
「ここに来るのは久しぶりだな。」
# speaker: hana
「ねえ、一緒に待ってくれる？」
* [一緒に待つ]
    # se: steps
    # speaker: hana
    # char: hana smile left
    「ありがとう。……きっと、来るよ。」
    -> night
* [今日は帰る]
    # hide: hana
    # se: door
    花は小さく手を振った。
    -> alone

=== night ===
# transition: crossfade
# scene: night
# effect: none
# bgm: night
夜になった。空には星がいっぱいだ。 # effect: stars
# se: train
# effect: shake
列車の音が近づいてくる。
# transition: flash
# char: hana sad center
# hide: ren
# effect: flash
# se: bell
「……さよなら、じゃないよね。」 # speaker: hana
# effect: snow
# se: wind
季節外れの雪が、ひとひら舞った。
# hide: all
# bgm: stop
# ending: together
ふたりは、同じ列車に乗った。
-> END

=== alone ===
# transition: none
# scene: station
# effect: rain
# se: wave
雨が降り出した。波の音だけが聞こえる。
# se: page
# effect: none
# ending: alone
ひとりで歩く帰り道は、少しだけ長かった。
-> END
