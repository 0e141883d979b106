-- Retention of the play page's WebRTC stats (issue 14, docs/scale.md "What breaks first" item 5):
-- at 10,000 players the table grows by ~86 M rows a day. Rows older than STATS_RETENTION_DAYS are
-- deleted in batches (services/collect.ts `prune`, run hourly by plugins/retention.ts). The table
-- is append-only and time-ordered, so a BRIN index on the receive time finds old rows at almost
-- no cost in size or in insert time.
CREATE INDEX collect_webrtc_stats_received ON collect_webrtc_stats USING brin (received_at);
