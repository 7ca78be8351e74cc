-- Why a chat line was reported (lobby::chat::ReportReason): the reporter
-- picks one, so the operator reads the reason beside the line. Reports
-- filed before this migration read 'other'.
ALTER TABLE reports ADD COLUMN reason TEXT NOT NULL DEFAULT 'other';
