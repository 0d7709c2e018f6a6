ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_transaction_key" ON "invoice_lines" USING btree ("transaction_id");--> statement-breakpoint
-- invoice lines are as append-only as the ledger they show (decision 050)
CREATE FUNCTION invoice_lines_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'invoice lines are never changed or removed' USING ERRCODE = '23514';
END $$;
--> statement-breakpoint
CREATE TRIGGER invoice_lines_append_only BEFORE UPDATE OR DELETE ON invoice_lines
  FOR EACH ROW EXECUTE FUNCTION invoice_lines_append_only();
--> statement-breakpoint
CREATE TRIGGER invoice_lines_no_truncate BEFORE TRUNCATE ON invoice_lines
  FOR EACH STATEMENT EXECUTE FUNCTION invoice_lines_append_only();
