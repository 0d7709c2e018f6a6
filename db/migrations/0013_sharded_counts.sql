DROP INDEX "business_counts_key";--> statement-breakpoint
ALTER TABLE "business_counts" ADD COLUMN "shard" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "business_counts_key" ON "business_counts" USING btree ("business_id","entity","shard");--> statement-breakpoint
-- Each change adds to (or takes from) one of 8 shard rows picked at random; a total is their sum.
CREATE OR REPLACE FUNCTION business_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO business_counts (business_id, entity, shard, n) VALUES (NEW.business_id, TG_TABLE_NAME, floor(random() * 8)::int, 1)
    ON CONFLICT (business_id, entity, shard) DO UPDATE SET n = business_counts.n + 1;
    RETURN NEW;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO business_counts (business_id, entity, shard, n) VALUES (OLD.business_id, TG_TABLE_NAME, floor(random() * 8)::int, -1)
    ON CONFLICT (business_id, entity, shard) DO UPDATE SET n = business_counts.n - 1;
    RETURN OLD;
  END IF;
  RETURN NULL;
END $$;
