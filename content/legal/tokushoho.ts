import type { LegalDocument } from './types';

/**
 * 特定商取引法に基づく表記 (/tokushoho): the seller's details Japanese law (特定商取引法 第11条)
 * requires of a paid online service, linked from the footer and every purchase page. Prices are
 * not written here: they are the plans' data, shown tax included on /upgrade and on the final
 * confirmation before payment (GET /v1/plans), so the two can never disagree.
 */
export const tokushoho: LegalDocument = {
  title: '特定商取引法に基づく表記',
  updatedAt: '2026-12-01',
  intro: ['ノベルゲーム配信サービス「Yumecast（ユメキャスト）」の有料プラン（以下「有料プラン」といいます。）に関する、特定商取引法に基づく表記です。'],
  sections: [
    { heading: '販売事業者', paragraphs: ['株式会社ユメキャスト'] },
    { heading: '運営統括責任者', paragraphs: ['代表取締役（氏名は、ご請求いただいた場合に遅滞なく電子メールで開示します。）'] },
    {
      heading: '所在地・電話番号',
      paragraphs: ['東京都（詳しい所在地と電話番号は、ご請求いただいた場合に遅滞なく電子メールで開示します。）'],
    },
    { heading: 'お問い合わせ先', paragraphs: ['メールアドレス：support@yumecast.example（受付は24時間、回答は平日10時〜18時）'] },
    {
      heading: '販売価格',
      paragraphs: [
        '各プランの料金は、プランのご案内ページ（/upgrade）およびお申し込み前の最終確認画面に、消費税込みの金額で表示しています。',
      ],
    },
    {
      heading: '商品代金以外の必要料金',
      paragraphs: ['本サービスの閲覧・プレイに必要なインターネット接続料金、通信料金はお客様のご負担となります。'],
    },
    { heading: 'お支払い方法', paragraphs: ['クレジットカード（VISA、Mastercard、JCB、American Express、Diners Club）'] },
    {
      heading: 'お支払い時期',
      paragraphs: [
        'お申し込み時に初回の料金をお支払いいただきます。以降は、契約期間（1か月など、プランごとに表示する期間）の満了日に同じ条件で自動更新され、更新日にご登録のクレジットカードへ請求します。カード会社からの引き落とし日は、各カード会社の規定によります。',
      ],
    },
    { heading: 'サービスの提供時期', paragraphs: ['お支払いの完了後、直ちにご利用いただけます。'] },
    {
      heading: '解約（自動更新の停止）',
      paragraphs: [
        '設定の「プランとお支払い」（/settings/purchase）から、いつでも解約できます。次回の自動更新を止めるには、更新日の前日までに解約してください。解約後も、お支払い済みの期間の満了まではご利用いただけます。解約の取り消しも、期間の満了までであれば同じ画面から行えます。',
      ],
    },
    {
      heading: '返品・返金',
      paragraphs: [
        'デジタルコンテンツの性質上、お支払い後の返品・返金には応じられません。ただし、当社の責めに帰すべき事由によりサービスを提供できなかった場合は、利用規約に従い対応します。',
      ],
    },
    {
      heading: '動作環境',
      paragraphs: ['最新版の Google Chrome、Safari、Microsoft Edge、Firefox（パソコン、スマートフォン、タブレット）。映像の配信には安定したインターネット接続が必要です。'],
    },
  ],
};
