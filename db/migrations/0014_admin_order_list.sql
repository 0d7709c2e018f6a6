-- pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it without superuser rights (decision 018).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "orders_business_amount_idx" ON "orders" USING btree ("business_id","amount" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_search_trgm_idx" ON "orders" USING gin ((order_number || ' ' || customer_name || ' ' || customer_phone || ' ' || regexp_replace(customer_phone, '[^0-9]', '', 'g') || ' ' || coalesce(customer_email, '')) gin_trgm_ops);