CREATE INDEX "mail_messages_waiting_idx" ON "mail_messages" USING btree ("next_attempt_at") WHERE status = 'QUEUED' and attempts = 0 and next_attempt_at is not null;--> statement-breakpoint
-- a row written waiting (never tried, next_attempt_at set: the checkout's order statement) gets its
-- job from the mail dispatcher after the commit, not from this trigger (decision 087): adding a job
-- NOTIFYs, and the order's transaction must not
DROP TRIGGER mail_messages_queue ON "mail_messages";--> statement-breakpoint
CREATE TRIGGER mail_messages_queue AFTER INSERT ON "mail_messages"
  FOR EACH ROW WHEN (NEW.status = 'QUEUED' AND NEW.next_attempt_at IS NULL) EXECUTE FUNCTION mail_messages_queue();
