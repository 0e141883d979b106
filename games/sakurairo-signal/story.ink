// 桜色シグナル — 夕凪ソフト
// 終電を逃した夜、踏切の前の先輩と、始発までの時間。三つの結末（桜色の約束／シャッターを切る朝／始発のベル）。
// 大人の恋愛を描く作品ですが、性的な描写はありません。夜の会話と、気持ちと、夜明けの物語です。
// 変数: kyori = ふたりの距離、shashin = 先輩の写真への想い、honne = 本音を言えた度合い。

VAR kyori = 0
VAR shashin = 0
VAR honne = 0
VAR nomimono = ""

-> prologue

=== prologue ===
# bgm: sakura_signal
# transition: fade
# scene: fumikiri
# se: crossing
カンカンカン、と踏切が鳴っている。
三月の終わり。写真サークルの追い出しコンパの帰り道。二次会を抜けて駅まで走ったけれど、終電は、目の前でホームを出ていった。
あと数日で大学二年になる春。二十歳になったばかりの俺は、終電を逃した夜の正しい過ごし方を、まだ知らない。
遮断機の降りた踏切の前に、誰かが立っていた。
ベージュのトレンチコート。肩から斜めに提げた、古いフィルムカメラ。
桜井千尋先輩だった。
今夜の主役のひとり。この春で大学を卒業して、東京の会社に就職する人。
警報機の赤い光が、先輩の横顔を照らしては消え、照らしては消えていた。
# se: train
回送列車が、轟音をあげて通り過ぎていく。風で、先輩の髪と、踏切脇の桜の花びらが舞いあがった。
遮断機が上がっても、先輩は動かなかった。まるで、渡る理由を忘れてしまったみたいに。
* [「先輩、終電、行っちゃいましたよ」と声をかける]
    ~ kyori += 1
    -> c1_call
* [先輩が気づくまで、少し離れて待つ]
    ~ honne += 1
    -> c1_wait
* [カメラを構えて、先輩の後ろ姿を撮るふりをする]
    ~ shashin += 1
    -> c1_camera

=== c1_call ===
「先輩。終電、行っちゃいましたよ」 # speaker: haruto
# char: chihiro surprised center
先輩は、びくりと肩を揺らして振り返った。
「……遥斗くん？　なんで、いるの」 # speaker: chihiro
「俺も乗り遅れたんです。二次会で高槻の話が長くて」 # speaker: haruto
# char: chihiro smile center
「ああ、あの子。……そっか。じゃあ、わたしと同じだ」 # speaker: chihiro
先輩は、何でもないふうに笑った。でも、俺は知っている。先輩は一次会のあと、「明日早いから」と言って、誰よりも先に店を出ていったはずだ。
終電に間に合わないはずがない時間に。
「高槻くん、まだ店で語ってる？」 # speaker: chihiro
「たぶん。あいつ、このあと夜勤なのに、三次会まで行く気でしたから」 # speaker: haruto
「元気だなあ。……若いっていいね」 # speaker: chihiro
「先輩、俺らと二つしか違わないですよね」 # speaker: haruto
「二つは大きいの。社会人になったら、一年で三つくらい歳とるんだって、先輩が言ってた」 # speaker: chihiro
-> meet

=== c1_wait ===
声をかけようとして、やめた。
先輩の背中が、誰にも話しかけられたくない、と言っているように見えたから。
俺は、少し離れた自販機の陰で、信号が何度か変わるのを見ていた。夜風はまだ冷たくて、桜だけが、季節を先取りしたみたいに咲いている。
五回目の青信号で、先輩がふと振り返った。
# char: chihiro surprised center
「……いつから、いたの」 # speaker: chihiro
「回送が通ったあたりから、です」 # speaker: haruto
「声、かければいいのに」 # speaker: chihiro
「かけないほうが、いい気がして」 # speaker: haruto
# char: chihiro gentle center
先輩は、少しだけ目を丸くして、それから困ったように笑った。
「遥斗くんって、そういうとこあるよね。……ありがと」 # speaker: chihiro
「終電、行っちゃいましたね」 # speaker: haruto
「行っちゃったね。……見送ってたの。乗らないで」 # speaker: chihiro
先輩は、線路の向こうの暗がりを見つめたまま言った。そこにはもう、赤いテールランプの残像さえ残っていなかった。
-> meet

=== c1_camera ===
俺は、首から提げたデジカメを構えた。
ファインダーの中で、警報機の赤い光と、夜桜と、先輩の後ろ姿が、一枚の絵みたいに重なった。
シャッターは、切らなかった。切ってはいけない気がした。
# char: chihiro surprised center
「……撮った？」 # speaker: chihiro
いつの間にか、先輩がこっちを向いていた。
「撮ってません。撮りそうになっただけです」 # speaker: haruto
# char: chihiro smile center
「なにそれ。撮ればいいのに。いい構図だったでしょ、今の」 # speaker: chihiro
「先輩の真似ですよ。先輩、いつも言ってたじゃないですか。『撮らないで見ておきたい瞬間もある』って」 # speaker: haruto
# char: chihiro gentle center
先輩は、一瞬だけ言葉に詰まった。
「……そんなこと、言ったっけ。覚えてないや」 # speaker: chihiro
肩のフィルムカメラを、先輩の指が、そっとなでた。
「でも、遥斗くんが撮らなかったなら、今の瞬間は、遥斗くんの目の中にだけ残るんだね」 # speaker: chihiro
「……そうなりますね」 # speaker: haruto
「ちょっと、うらやましいな。そういう残し方」 # speaker: chihiro
警報機が止んで、踏切は急に静かになった。花びらが一枚、先輩のコートの肩にとまった。
-> meet

=== meet ===
# char: chihiro normal center
「わたしね、明日の始発で東京に行くの。荷物はもう全部送っちゃって、部屋も空っぽ」 # speaker: chihiro
「だから今夜は、駅の向こうのビジネスホテルを取ってたんだけど。……なんか、乗る気になれなくて。電車」 # speaker: chihiro
「踏切の前に立ってたら、終電が行っちゃった」 # speaker: chihiro
先輩はそう言って、肩をすくめた。
「ホテルまで、歩いたら一時間くらいですよ」 # speaker: haruto
「知ってる。歩く気にもなれないの」 # speaker: chihiro
# char: chihiro gentle center
「今日ね、一次会で、みんなが寄せ書きくれたんだ。『東京でもがんばってください』『先輩ならどこでも大丈夫です』って。うれしかったよ。ほんとに」 # speaker: chihiro
「でも、店を出て、ひとりで駅まで歩いてたら、急に、足が動かなくなっちゃって。……なんでだろうね。子どもみたい」 # speaker: chihiro
先輩は、ポケットの中の色紙の角を、指でなぞっていた。
# char: chihiro teasing center
先輩は、少しだけいたずらっぽい目で、俺を見上げた。
「ねえ、遥斗くん。始発まで、付き合ってくれない？」 # speaker: chihiro
「この町で過ごす、最後の夜だから。ひとりで過ごすのは、ちょっともったいない気がして」 # speaker: chihiro
心臓が、一拍、変なリズムを打った。
「……いいですよ。俺も、帰る電車ないですし」 # speaker: haruto
# char: chihiro smile center
「やった。じゃあ、まずはあったかいもの買いにいこう。寒い」 # speaker: chihiro
-> konbini

=== konbini ===
# transition: fade
# hide: all
# scene: konbini
# bgm: yoru_no_sanpo
# se: door
踏切から歩いて三分。国道沿いのコンビニ、サクラマートは、夜の町でそこだけ昼間みたいに明るかった。
# char: takatsuki surprised right
「いらっしゃいま……って、遥斗？　お前、二次会は？」 # speaker: takatsuki
レジの向こうで目を丸くしたのは、高槻だった。高校からの腐れ縁で、同じ大学の同じ学年。週に三回、ここで夜勤のバイトをしている。
「抜けてきた。終電逃した」 # speaker: haruto
# char: chihiro smile left
「こんばんは。高槻くん、今日もバイトだったんだ」 # speaker: chihiro
# char: takatsuki surprised right
「ち、千尋先輩！？　え、なんで、遥斗と？　こんな時間に？」 # speaker: takatsuki
高槻の視線が、俺と先輩のあいだを、高速で往復した。
「踏切で会ったんだよ。たまたま」 # speaker: haruto
# char: takatsuki smile right
「たまたま、ねえ……」 # speaker: takatsuki
# char: chihiro normal left
「高槻くん、バイト何時まで？」 # speaker: chihiro
「朝六時っす。先輩、明日……っていうか今日、東京ですよね。見送り、行けなくてすみません」 # speaker: takatsuki
「いいよいいよ。高槻くんは、ちゃんと寝てから授業出なさい。一限、また寝坊するんでしょ」 # speaker: chihiro
# char: takatsuki troubled right
「なんで知ってるんですか……」 # speaker: takatsuki
「サークル室で、いつも出席表の代筆頼んでたじゃない。遥斗くんに」 # speaker: chihiro
意味ありげな顔をしていた高槻が、一転して気まずそうに目をそらした。その隙に、俺は店の奥へ向かった。先輩は、雑誌の棚の前で、旅行雑誌の表紙をぼんやり眺めている。
# char: chihiro normal left
温かい飲み物の棚の前で、俺は少し迷った。
* [ブラックの缶コーヒーを二本]
    ~ nomimono = "coffee"
    ~ kyori += 1
    -> c2_coffee
* [肉まんをひとつ。半分こにする用]
    ~ nomimono = "nikuman"
    ~ honne += 1
    -> c2_nikuman
* [先輩がサークル室でいつも飲んでいた、甘いミルクティー]
    ~ nomimono = "tea"
    ~ kyori += 2
    -> c2_tea

=== c2_coffee ===
ブラックの缶コーヒーを二本、レジに置いた。
# char: chihiro surprised left
「あ、ブラック。遥斗くん、飲めるようになったんだ」 # speaker: chihiro
「……去年の新歓のとき、先輩が『ブラック飲めないうちは子ども』って言ったんですよ」 # speaker: haruto
「言ったかも。ひどい先輩だね」 # speaker: chihiro
# char: chihiro smile left
「それで、一年かけて飲めるようになりました」 # speaker: haruto
先輩は、ふふ、と笑って、缶を両手で包みこんだ。
「えらい。……でも、ほんとはわたしも、ブラックそんなに得意じゃないんだよね」 # speaker: chihiro
「えっ」 # speaker: haruto
「大人ぶってただけ。秘密ね」 # speaker: chihiro
先輩は、プルタブを開けて一口飲むと、思いきり顔をしかめた。
「……苦い。でも、今夜はこれくらいがちょうどいいかも」 # speaker: chihiro
-> konbini_after

=== c2_nikuman ===
肉まんをひとつ、レジに置いた。
# char: takatsuki normal right
「ひとつ？　二つじゃなくて？」 # speaker: takatsuki
「半分こにするんだよ」 # speaker: haruto
# char: takatsuki smile right
「ほーん。……おまけだ。これ、俺のおごりな」 # speaker: takatsuki
高槻は、ホットのお茶を二本、勝手に袋に入れた。
外のベンチで、肉まんを半分に割る。湯気が、夜の空気に白くのぼった。
# char: chihiro smile left
「大きいほう、どっち？」 # speaker: chihiro
「……先輩のほうです」 # speaker: haruto
「ほんと？　じゃあ、遠慮なく」 # speaker: chihiro
先輩は子どもみたいにうれしそうに、肉まんにかぶりついた。
「サークルの合宿の夜も、こうやって半分こしたよね。覚えてる？」 # speaker: chihiro
「覚えてます。先輩、そのときも大きいほう取りました」 # speaker: haruto
「そうだっけ」 # speaker: chihiro
-> konbini_after

=== c2_tea ===
甘いミルクティーの缶を二本、レジに置いた。
# char: chihiro surprised left
先輩が、缶のラベルを見て、目を丸くした。
「それ……わたしがいつも飲んでたやつ」 # speaker: chihiro
「サークル室の冷蔵庫に、いつも入ってましたから。先輩の名前書いて」 # speaker: haruto
# char: chihiro shy left
「……よく、覚えてたね」 # speaker: chihiro
先輩は、缶を両手で受け取って、しばらく見つめていた。
「みんなの前では、ブラックコーヒー飲んでたのに。ミルクティーが好きなの、ばれてたんだ」 # speaker: chihiro
「ばれてました。たぶん、俺だけ」 # speaker: haruto
# char: chihiro gentle left
「……そっか。遥斗くんにだけ、か」 # speaker: chihiro
先輩は、缶のプルタブを開けないまま、手のひらの中で転がしていた。あたためるみたいに。
-> konbini_after

=== konbini_after ===
# char: takatsuki normal right
会計を済ませて店を出ようとすると、高槻が、俺の袖を引いた。
「おい、遥斗」 # speaker: takatsuki
声をひそめて、高槻は言った。
「先輩、明日東京行くんだろ。……言いたいことあるなら、今夜しかないぞ」 # speaker: takatsuki
「……何の話だよ」 # speaker: haruto
# char: takatsuki troubled right
「とぼけんなよ。一年間、サークル室でお前が誰のこと見てたか、俺が気づいてないとでも思ってんのか」 # speaker: takatsuki
言い返す言葉が、見つからなかった。
# char: takatsuki smile right
「ま、がんばれ。俺は朝まで、ここで唐揚げ揚げてるからさ」 # speaker: takatsuki
# se: door
自動ドアが開いて、夜の冷たい空気が流れこんできた。
-> park

=== park ===
# transition: fade
# hide: all
# scene: park
# bgm: sakura_signal
# effect: sakura
コンビニの裏手の公園は、ちょうど桜が満開だった。
誰かが飾った提灯が、枝のあいだで淡く灯っている。街灯の下のベンチに、ふたりで並んで座った。
# char: chihiro normal center
「この公園、よく撮りに来たなあ。一年生のとき」 # speaker: chihiro
「俺も、先輩に連れてこられました。去年の春、入部してすぐ。『夜桜は三脚なしで撮れたら一人前』って言われて、手ぶれ写真を五十枚撮りました」 # speaker: haruto
# char: chihiro smile center
「あったあった。全部ぶれてて、一枚だけ、奇跡的にピントが合ってたやつ」 # speaker: chihiro
「あれ、ピントが合ってたの、桜じゃなくて先輩の後頭部でしたけどね」 # speaker: haruto
「そうだった！　それ、サークル室の壁に貼ったよね。わたしの後頭部」 # speaker: chihiro
先輩が、声をあげて笑った。提灯の明かりが揺れて、ふたりぶんの影が、花びらの積もった地面に伸びる。
「夏の合宿で、夜明けの海を撮りに行ったのも覚えてる？　みんな寝坊して、起きてたの、わたしと遥斗くんだけで」 # speaker: chihiro
「覚えてます。結局、曇ってて、朝日なんて一秒も見えなかった」 # speaker: haruto
# char: chihiro gentle center
「でも、あの灰色の海、わたしはけっこう好きだったな。撮らなかったけど」 # speaker: chihiro
「秋の学祭の展示も、冬の追い込みの暗室作業も。……この一年、ずっと楽しかったな。最後の一年が、いちばん楽しかった」 # speaker: chihiro
# char: chihiro normal center
先輩は、肩のフィルムカメラを持ち上げて、ファインダーをのぞいた。でも、シャッターは切らなかった。
「撮らないんですか」 # speaker: haruto
「フィルム、入ってないの。もう一年くらい、入れてない」 # speaker: chihiro
先輩は、カメラをひざの上に下ろした。
# char: chihiro sad center
「就活を始めたときに、やめたんだ。写真」 # speaker: chihiro
「三年の秋に、ずっと目標にしてた写真賞に出して、落ちたの。一次選考で。自分では、いちばんいい写真だと思ってた」 # speaker: chihiro
「それで、ああ、わたしはここまでなんだなって。好きなだけじゃ、どうにもならないんだなって」 # speaker: chihiro
桜の花びらが、先輩のカメラのレンズの上に、一枚落ちた。
「東京の会社、いいところなんだよ。お給料もちゃんとしてるし、親も安心してくれた。……なのに、なんでだろうね。今日、みんなに『おめでとう』って言われるたびに、ちょっとずつ息が苦しくなってた」 # speaker: chihiro
# char: chihiro troubled center
先輩は、俺のほうを向いた。
「ねえ、遥斗くん。わたし、写真やめて、正解だったと思う？」 # speaker: chihiro
* [「正解かどうかは、わかりません。でも、俺は先輩の写真が好きです」]
    ~ kyori += 1
    ~ shashin += 1
    ~ honne += 1
    -> c3_suki
* [「先輩が決めたことなら、俺は応援します」]
    ~ honne -= 1
    -> c3_ouen
* [「……やめないでください」]
    ~ shashin += 2
    -> c3_yamenai

=== c3_suki ===
「正解かどうかは、わかりません。俺、まだ二十歳だし、働いたこともないし」 # speaker: haruto
「でも、俺は先輩の写真が好きです。それだけは、本当です」 # speaker: haruto
# char: chihiro surprised center
先輩は、少しのあいだ、黙って俺を見ていた。
「……ずるいな、その答え」 # speaker: chihiro
「ずるいですか」 # speaker: haruto
# char: chihiro shy center
「ずるいよ。正解とか不正解とか、そういうのを全部どかして、いちばん言ってほしかったことだけ言うんだもん」 # speaker: chihiro
先輩は、カメラのレンズの上の花びらを、指でそっと払った。
「……ありがと。今日、いちばんうれしい言葉だったかも。寄せ書きより」 # speaker: chihiro
「寄せ書きに勝てたなら、よかったです」 # speaker: haruto
「勝ち負けなんだ」 # speaker: chihiro
先輩が、くすっと笑った。さっきまでの完璧な笑顔とはちがう、少しくずれた、本物の笑い方だった。
-> why_club

=== c3_ouen ===
「先輩が決めたことなら、俺は応援します」 # speaker: haruto
言ってから、自分の声が、少しよそゆきだったことに気づいた。
# char: chihiro gentle center
「……うん。ありがと。みんな、そう言ってくれる」 # speaker: chihiro
先輩は笑った。今日、何十回も見た笑顔だった。おめでとう、と言われるたびに浮かべていた、完璧な笑顔。
俺も、その「みんな」のひとりになってしまった。そう思うと、缶を握る手に、少しだけ力がこもった。
本当は、もっと別のことを言いたかったはずなのに。
# char: chihiro normal center
「ごめんね、変なこと聞いて。答えにくいよね、こんなの」 # speaker: chihiro
「いえ……」 # speaker: haruto
先輩は、カメラのストラップを指に巻きつけては、ほどいていた。その仕草を見ていると、自分の言葉の薄っぺらさが、ますます恥ずかしくなった。
-> why_club

=== c3_yamenai ===
「……やめないでください」 # speaker: haruto
自分でも驚くくらい、強い声が出た。
# char: chihiro surprised center
「遥斗くん？」 # speaker: chihiro
「仕事をやめろとか、そういうことじゃないです。東京に行っても、会社で働いても、撮ることは、やめないでください」 # speaker: haruto
「一次選考で落ちたって、それは、その賞の審査員が選ばなかったってだけじゃないですか。先輩の写真が、誰の心にも届かなかったわけじゃない」 # speaker: haruto
「少なくとも、ひとり。……届いたやつが、ここにいます」 # speaker: haruto
先輩は、しばらく何も言わなかった。提灯の明かりが、その目の中で揺れていた。
# char: chihiro cry center
「……なんで、遥斗くんが泣きそうな顔してるの」 # speaker: chihiro
「先輩こそ」 # speaker: haruto
-> why_club

=== why_club ===
# char: chihiro normal center
しばらくして、先輩が、ぽつりと言った。
「ねえ。ずっと聞きたかったんだけど、遥斗くんって、なんで写真サークルに入ったの？　カメラ、入学してから買ったんでしょ」 # speaker: chihiro
俺は、缶を握り直した。
「去年の四月、新歓の写真展で、一枚の写真を見たんです」 # speaker: haruto
「夜明けの踏切の写真でした。警報機の赤いランプに、桜の花びらが一枚だけ張りついてて。その向こうの空が、ちょうど、桜と同じ色に染まってた」 # speaker: haruto
「題名は、『桜色シグナル』」 # speaker: haruto
# char: chihiro surprised center
先輩の手から、缶が落ちそうになった。
「その写真の前で、十分くらい動けなかったんです。それで、気づいたら入部届を書いてました。撮った人に会ってみたくて」 # speaker: haruto
「……あれ、わたしが一年のときに撮った写真だよ。この町に引っ越してきた、最初の朝に」 # speaker: chihiro
「知ってます。入部した日に、先輩本人から聞きました」 # speaker: haruto
「聞いた？　わたし、言ったっけ」 # speaker: chihiro
「言いました。『あれ撮ったの、わたし』って、すごく得意そうに」 # speaker: haruto
# char: chihiro shy center
先輩は、両手で顔をおおった。
「うわあ。恥ずかしい。……なんで覚えてるの、そんなこと」 # speaker: chihiro
答えは、ひとつしかなかった。でも、それは、まだ言えなかった。
# char: chihiro gentle center
「あの写真の踏切ね。さっき、わたしが立ってた踏切なんだよ」 # speaker: chihiro
「……え」 # speaker: haruto
「四年前の春、はじめてこの町に着いた朝。不安で、眠れなくて、夜明け前に散歩に出て。あの踏切で、あの光を見たの。ああ、この町で大丈夫かもしれないって、思えた」 # speaker: chihiro
「だから、最後の夜も、あそこに行きたくなったのかな。……同じ光が、もう一度見られたら、東京でも大丈夫だって、思える気がして」 # speaker: chihiro
「でも、夜の踏切は、ただ赤く光ってるだけだった。あの朝の色は、どこにもなかった」 # speaker: chihiro
「当たり前ですよ。まだ夜なんですから」 # speaker: haruto
「……そっか。そうだよね。夜明けは、夜明けにしか来ないんだ」 # speaker: chihiro
先輩は、自分で言って、自分で小さくうなずいた。
-> river_night

=== river_night ===
# transition: fade
# effect: none
# hide: all
# scene: river_night
# bgm: ienakatta
公園を出て、川沿いの土手を歩いた。
夜の川は、町の明かりを映して、ゆっくりと流れている。土手の桜並木が、暗い水面に、ぼんやりと白い影を落としていた。
時刻は、午前三時を回っていた。始発まで、あと二時間もない。
# char: chihiro normal center
「ねえ、遥斗くん」 # speaker: chihiro
先輩が、少し前を歩きながら言った。
「わたし、この四年間で、言えなかったことがいっぱいあるんだ」 # speaker: chihiro
「写真で食べていきたいって、親に言えなかった。賞に落ちて悔しいって、誰にも言えなかった。サークルの代表なんて、本当は向いてないって思ってたのも、言えなかった」 # speaker: chihiro
# char: chihiro sad center
「東京に行きたくないって、今日、誰にも言えなかった」 # speaker: chihiro
川面を渡る風が、先輩の髪を揺らした。
「……今、言えてますよ」 # speaker: haruto
# char: chihiro surprised center
「え？」 # speaker: chihiro
「俺には、言えてます。全部」 # speaker: haruto
# char: chihiro gentle center
先輩は、足を止めて、俺を振り返った。それから、泣き笑いみたいな顔をした。
「ほんとだ。……なんでだろ。遥斗くんの前だと、言えちゃう」 # speaker: chihiro
{honne >= 1:
    「遥斗くんって、自分の話はあんまりしないのに、人の話を聞くのは、すごくうまいよね」 # speaker: chihiro
    「じゃあ、今度は遥斗くんの番。……言えなかったこと、ある？」 # speaker: chihiro
    あります、と言いそうになって、俺は川のほうを見た。喉の奥に、一年分の言葉が詰まっていた。
- else:
    「遥斗くんにも、あるでしょ。言えなかったこと」 # speaker: chihiro
    「……ありますよ。たぶん、先輩よりは少ないですけど」 # speaker: haruto
    「ふうん」 # speaker: chihiro
    先輩はそれ以上聞かなかった。聞かれなかったことに、少しほっとして、少しだけがっかりした。
}
# char: chihiro normal center
しばらく、ふたりで黙って歩いた。
「遥斗くんは、将来、何になりたいの？」 # speaker: chihiro
唐突な質問だった。
「……まだ、わかりません。とりあえず単位を落とさないことで精一杯で」 # speaker: haruto
「ふふ。正直でよろしい」 # speaker: chihiro
「でも、写真は、続けたいです。仕事にするかどうかは別として。撮りたいと思ったものを、ちゃんと撮れる人でいたい」 # speaker: haruto
# char: chihiro gentle center
先輩は、少しのあいだ黙って、それから、俺の肩を軽く叩いた。
「それ、わたしが一年生のときに言ってたのと、まったく同じだ」 # speaker: chihiro
「そうなんですか」 # speaker: haruto
「うん。……忘れてた。自分がそう言ってたこと」 # speaker: chihiro
川の向こう岸で、新聞配達のバイクが、ヘッドライトを揺らしながら走っていく。町が、少しずつ目を覚まそうとしていた。
# char: chihiro normal center
「このカメラね、おじいちゃんの形見なんだ」 # speaker: chihiro
先輩は、肩のフィルムカメラを持ち上げて見せた。黒い塗装がところどころ剥げて、真鍮の地金がのぞいている。
「おじいちゃん、町の写真屋さんだったの。七五三とか、入学式とか、町じゅうの人の写真を撮ってた。わたしが写真を好きになったのは、おじいちゃんのせい」 # speaker: chihiro
「フィルムを入れなくなってからも、これだけは、手放せなかった。……重いだけなのにね」 # speaker: chihiro
「重いのは、大事だからじゃないですか」 # speaker: haruto
# char: chihiro gentle center
先輩は、ちょっと笑って、カメラを胸に抱え直した。
東の空の端が、ほんのりと、薄い紫色に変わりはじめていた。
-> dawn

=== dawn ===
# transition: fade
# hide: all
# scene: river_dawn
# bgm: sakura_signal
# effect: sakura
夜明けが来た。
東の空が、群青から紫へ、紫から淡いオレンジへ、ゆっくりと色を変えていく。そして、川面と桜並木のあいだの空が、一瞬だけ、桜の花びらと同じ色に染まった。
# char: chihiro surprised center
「……あ」 # speaker: chihiro
先輩が、小さく声をあげた。
「この色。四年前と、同じ色だ」 # speaker: chihiro
桜色の空。先輩の写真の中で、俺が一年間見つめ続けてきた色。
# char: chihiro gentle center
先輩は、しばらく空を見上げていた。それから、肩のフィルムカメラに手をかけて、また離した。
「始発、四時五十二分だったよね。……そろそろ、行かなきゃ」 # speaker: chihiro
時計を見ると、四時二十分だった。ここから駅まで、歩いて十五分。
先輩は、土手の桜の幹に、そっと手を当てた。
「ねえ。東京にも、桜、咲いてるかな」 # speaker: chihiro
「咲いてますよ。向こうのほうが、一週間くらい早いはずです」 # speaker: haruto
「そっか。じゃあ、もう散りはじめてるね。……なんか、追いかけてばっかりだな、わたし」 # speaker: chihiro
言うなら、今しかない。
高槻の声が、頭の中で聞こえた。言いたいことあるなら、今夜しかないぞ。
* {kyori >= 3} [「先輩。俺、先輩のことが好きです」]
    -> end_yakusoku
* {shashin >= 2} [「先輩。撮ってください、この空。……写真、続けてください」]
    -> end_shutter
* [何も言わずに、駅まで送る]
    -> end_shihatsu

=== end_yakusoku ===
「先輩」 # speaker: haruto
# char: chihiro normal center
先輩が、振り返った。桜色の空を背にして。
「俺、先輩のことが好きです」 # speaker: haruto
「一年前、あの写真を見た日から、ずっと。言えなかったのは、先輩がいつか卒業して、いなくなるってわかってたからです。言っても、困らせるだけだって」 # speaker: haruto
「でも、言わないまま見送ったら、たぶん、一生後悔します。だから、言います。……好きです」 # speaker: haruto
# char: chihiro surprised center
先輩は、しばらく目を見開いたまま、動かなかった。
風が吹いて、桜の花びらが、ふたりのあいだを流れていった。
# char: chihiro cry center
「……遅いよ」 # speaker: chihiro
先輩の目から、涙がひとつ、こぼれた。
「わたし、今夜、ずっと待ってたのに。踏切で声かけてもらったときから、ずっと」 # speaker: chihiro
「え……」 # speaker: haruto
# char: chihiro shy center
「わたしも、言えなかったことの最後のひとつ、言うね」 # speaker: chihiro
「サークル室で、いつもわたしのミルクティーを覚えててくれる後輩のこと、気になってた。東京に行くって決めてから、それが、いちばん苦しかった」 # speaker: chihiro
# bgm: asayake
心臓の音が、踏切の警報機みたいにうるさかった。
「東京とここ、新幹線なら、一時間半だよ」 # speaker: chihiro
「……始発の在来線だと、三時間ですけど」 # speaker: haruto
# char: chihiro smile center
「細かいなあ。……でも、三時間なら、会いに来られるよね。会いに行けるよね」 # speaker: chihiro
「行きます。毎月。バイト代、全部つぎこみます」 # speaker: haruto
「全部はだめ。フィルム代は、残しておいて」 # speaker: chihiro
# transition: fade
# effect: none
# hide: all
# scene: fumikiri_dawn
# se: crossing
四時四十五分。夜明けの踏切が、カンカンと鳴っている。
# char: chihiro smile center
改札の前で、先輩はフィルムカメラを構えて、俺に向けた。
「一枚目。新しいフィルムの、最初の一枚」 # speaker: chihiro
「コンビニで買ったんですか、いつの間に」 # speaker: haruto
「高槻くんが、こっそり袋に入れてくれてたの。『先輩、これ』って」 # speaker: chihiro
# se: shutter
カシャ、と、懐かしい音がした。
「次に会うときまでに、現像しておくね。……約束」 # speaker: chihiro
始発列車のドアが閉まる。窓の向こうで、先輩が小さく手を振った。ガラス越しに、唇が「またね」と動いた。
遮断機が上がる。警報機の赤い光が消えて、そのかわりに、朝日が線路を桜色に染めていた。
俺はスマホを取り出して、最初のメッセージを打った。『次の土曜、行ってもいいですか』。
送信ボタンを押す前に、もう、先輩から届いていた。『次の土曜、来られる？』 # ending: yakusoku
-> END

=== end_shutter ===
「先輩。撮ってください、この空」 # speaker: haruto
# char: chihiro surprised center
「え……」 # speaker: chihiro
「フィルム、入ってないのは知ってます。だから、これ」 # speaker: haruto
俺はポケットから、小さな箱を取り出した。コンビニを出るとき、高槻が袋の中に黙って入れていた、使い捨てじゃない、ちゃんとしたフィルムの箱。
あいつは、最初から全部わかっていたのかもしれない。
「写真、続けてください。会社で働きながらでいいんです。週末だけでも、月に一枚だけでも」 # speaker: haruto
「先輩の写真を見て、人生がちょっと変わったやつが、ここにひとりいるんです。だから……やめないでください」 # speaker: haruto
先輩は、フィルムの箱を受け取って、長いあいだ見つめていた。
# char: chihiro cry center
「……ほんと、ずるいなあ。遥斗くんは」 # speaker: chihiro
# bgm: asayake
先輩は、震える指で、カメラの裏蓋を開けた。一年ぶりに、フィルムを装填する。巻き上げレバーを、二回、三回。
そして、ファインダーをのぞいて、桜色の空に向けた。
# se: shutter
カシャ。
懐かしい音が、夜明けの土手に響いた。
# char: chihiro smile center
「……撮れた」 # speaker: chihiro
先輩は、子どもみたいな顔で笑った。今日見た中で、いちばんきれいな笑顔だった。
「もう一枚。今度は、こっち」 # speaker: chihiro
先輩は、カメラを俺に向けた。
「えっ、俺ですか」 # speaker: haruto
「わたしの写真で人生が変わった人の、記念写真。……はい、笑って」 # speaker: chihiro
# se: shutter
カシャ。
# transition: fade
# effect: none
# hide: all
# scene: fumikiri_dawn
# se: train
四時五十二分。始発列車のドアの前で、先輩は振り返った。
# char: chihiro gentle center
「東京でも、撮るよ。週末だけでも。それで、いつかまた、あの賞に出す」 # speaker: chihiro
「落ちたら、また落ちたって、遥斗くんに言う。今度は、ちゃんと言う」 # speaker: chihiro
「聞きます。何回でも」 # speaker: haruto
ドアが閉まる。列車が、桜色の朝の中へ走り出していく。
言えなかった「好き」は、まだポケットの中にある。でも、不思議と、焦りはなかった。
次に先輩の写真が賞の一次選考を通ったら、そのときに言おう。それまでは、いちばん最初のファンでいよう。
一年後。先輩から届いた封筒の中には、一枚の写真が入っていた。夜明けの土手で、間の抜けた顔で笑う俺。裏には、先輩の字で、こう書いてあった。
『入選しました。題名は、「桜色シグナル、その二」』 # ending: shutter
-> END

=== end_shihatsu ===
何も言えなかった。
言葉は、たしかに喉のすぐそこまで来ていた。でも、桜色の空を見上げる先輩の横顔があまりにきれいで、それを、俺の一言で曇らせたくなかった。
「……駅まで、送ります」 # speaker: haruto
# char: chihiro gentle center
「うん。ありがと」 # speaker: chihiro
先輩は、何かを待つように少しだけ俺を見て、それから、前を向いた。
# transition: fade
# effect: none
# hide: all
# scene: fumikiri_dawn
# bgm: ienakatta
# se: crossing
四時五十分。夜明けの踏切が、カンカンと鳴っている。
昨夜、先輩が立ち尽くしていた、あの踏切だ。遮断機の向こうに、始発列車のライトが見えた。
# char: chihiro smile center
「遥斗くん。今夜、付き合ってくれて、ありがとね」 # speaker: chihiro
「……いえ」 # speaker: haruto
「この町の最後の夜が、遥斗くんとでよかった。ほんとだよ」 # speaker: chihiro
# se: train
始発列車が、ホームに滑りこんでくる。先輩はキャリーバッグの取っ手を握って、ドアの前に立った。
# char: chihiro gentle center
「それじゃ。……元気でね、後輩くん」 # speaker: chihiro
ドアが閉まる直前、先輩が何か言った気がした。発車ベルにかき消されて、聞こえなかった。
列車が、朝日の中へ小さくなっていく。
ホームに残った俺の足もとに、桜の花びらが一枚、風に運ばれてきた。
踏切の警報機が止む。赤い光が消える。夜が、本当に終わった。
ポケットの中で、渡しそびれた言葉が、まだ少しあたたかかった。
# hide: all
# char: takatsuki normal center
「……言わなかったのか」 # speaker: takatsuki
振り向くと、バイト明けの高槻が、缶コーヒーを二本持って立っていた。
「言えなかった」 # speaker: haruto
# char: takatsuki troubled center
「ばーか」 # speaker: takatsuki
高槻は、缶コーヒーを一本、俺の胸に押しつけた。ブラックじゃなくて、甘いミルクティーだった。
# char: takatsuki smile center
「ま、東京なんて、始発で三時間だろ。言えなかったことは、言いに行けばいいんだよ」 # speaker: takatsuki
「……簡単に言うなよ」 # speaker: haruto
「簡単だよ。切符買って、電車乗って、会って、言う。四つだけだ。お前が一晩でやれなかったのは、最後のひとつだけだろ」 # speaker: takatsuki
言い返せなかった。高槻は、いつもこういうときだけ正しい。
甘いミルクティーは、少しだけ、涙の味がした。
その夜、先輩からメッセージが届いた。東京の、知らない踏切の写真が一枚。警報機の赤い光に、桜の花びらが一枚だけ張りついている。
『東京にも、桜色シグナル、ありました。——ねえ、今度、撮りに来ない？』
俺は、しばらく画面を見つめてから、返事を打ちはじめた。今度こそ、言えなかったことを、全部。 # ending: shihatsu
-> END
