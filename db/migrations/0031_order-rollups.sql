CREATE TABLE "order_daily_stats" (
	"business_id" text NOT NULL,
	"day" date NOT NULL,
	"shard" integer DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"paid_orders" integer DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_export_chunks" (
	"export_id" text NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_exports" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"query" text DEFAULT '' NOT NULL,
	"time_zone" text NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"expected" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_daily_sales" (
	"business_id" text NOT NULL,
	"day" date NOT NULL,
	"product_id" text NOT NULL,
	"name" text NOT NULL,
	"lines" integer DEFAULT 0 NOT NULL,
	"quantity" bigint DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_export_chunks" ADD CONSTRAINT "order_export_chunks_export_id_order_exports_id_fk" FOREIGN KEY ("export_id") REFERENCES "public"."order_exports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_exports" ADD CONSTRAINT "order_exports_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_daily_stats_key" ON "order_daily_stats" USING btree ("business_id","day","shard");--> statement-breakpoint
CREATE UNIQUE INDEX "order_export_chunks_key" ON "order_export_chunks" USING btree ("export_id","seq");--> statement-breakpoint
CREATE INDEX "order_exports_business_idx" ON "order_exports" USING btree ("business_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "product_daily_sales_key" ON "product_daily_sales" USING btree ("business_id","day","product_id","name");--> statement-breakpoint
-- Issue 45 (decision 068): figures kept in the transaction that changes the orders, so that the admin
-- and the dashboards never count orders. Per status in business_counts (entity 'orders:<STATUS>', in
-- one of 8 shards like the totals), per UTC day in order_daily_stats (sharded too), per UTC day,
-- product and line name in product_daily_sales (orders not cancelled). An order counts its lines when
-- they are inserted (the checkout's single statement inserts them with the order: the triggers fire at
-- its end and see both); its status, amount or day changing takes its old figures out and puts the new
-- ones in; deleting it takes them out before its lines cascade away.
CREATE OR REPLACE FUNCTION order_rollups_apply(o orders, sign integer, with_lines boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k integer := floor(random() * 8)::int;
  paid boolean := o.status <> 'CANCELLED';
  d date := (o.created_at AT TIME ZONE 'UTC')::date;
BEGIN
  INSERT INTO business_counts (business_id, entity, shard, n) VALUES (o.business_id, 'orders:' || o.status, k, sign)
  ON CONFLICT (business_id, entity, shard) DO UPDATE SET n = business_counts.n + excluded.n;
  INSERT INTO order_daily_stats (business_id, day, shard, orders, paid_orders, revenue)
  VALUES (o.business_id, d, k, sign, CASE WHEN paid THEN sign ELSE 0 END, CASE WHEN paid THEN sign * o.amount ELSE 0 END)
  ON CONFLICT (business_id, day, shard) DO UPDATE SET orders = order_daily_stats.orders + excluded.orders,
    paid_orders = order_daily_stats.paid_orders + excluded.paid_orders, revenue = order_daily_stats.revenue + excluded.revenue;
  IF with_lines AND paid THEN
    INSERT INTO product_daily_sales (business_id, day, product_id, name, lines, quantity, revenue)
    SELECT o.business_id, d, i.product_id, i.name, sign * count(*), sign * sum(i.quantity), sign * sum(i.quantity::bigint * i.price)
    FROM order_items i WHERE i.order_id = o.id GROUP BY i.product_id, i.name
    ON CONFLICT (business_id, day, product_id, name) DO UPDATE SET lines = product_daily_sales.lines + excluded.lines,
      quantity = product_daily_sales.quantity + excluded.quantity, revenue = product_daily_sales.revenue + excluded.revenue;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_rollups_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- its lines come after it (or in the same statement): they count themselves
    PERFORM order_rollups_apply(NEW, 1, false);
    RETURN NEW;
  ELSIF TG_OP = 'DELETE' THEN
    -- BEFORE DELETE: its lines are still there
    PERFORM order_rollups_apply(OLD, -1, true);
    RETURN OLD;
  ELSIF OLD.status IS DISTINCT FROM NEW.status OR OLD.amount IS DISTINCT FROM NEW.amount
     OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.business_id IS DISTINCT FROM NEW.business_id THEN
    PERFORM order_rollups_apply(OLD, -1, true);
    PERFORM order_rollups_apply(NEW, 1, true);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_rollups AFTER INSERT OR UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION order_rollups_track();
--> statement-breakpoint
CREATE TRIGGER orders_rollups_delete BEFORE DELETE ON orders FOR EACH ROW EXECUTE FUNCTION order_rollups_track();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_item_rollups_apply(item order_items, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  o orders;
BEGIN
  -- a line deleted with its order (the cascade) finds no order: the order's BEFORE DELETE took it out
  SELECT * INTO o FROM orders WHERE id = item.order_id;
  IF FOUND AND o.status <> 'CANCELLED' THEN
    INSERT INTO product_daily_sales (business_id, day, product_id, name, lines, quantity, revenue)
    VALUES (o.business_id, (o.created_at AT TIME ZONE 'UTC')::date, item.product_id, item.name, sign, sign * item.quantity, sign * item.quantity::bigint * item.price)
    ON CONFLICT (business_id, day, product_id, name) DO UPDATE SET lines = product_daily_sales.lines + excluded.lines,
      quantity = product_daily_sales.quantity + excluded.quantity, revenue = product_daily_sales.revenue + excluded.revenue;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_item_rollups_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM order_item_rollups_apply(OLD, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM order_item_rollups_apply(NEW, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_items_rollups AFTER INSERT OR UPDATE OR DELETE ON order_items FOR EACH ROW EXECUTE FUNCTION order_item_rollups_track();
--> statement-breakpoint
-- the figures of the orders already there
INSERT INTO business_counts (business_id, entity, shard, n)
SELECT business_id, 'orders:' || status, 0, count(*) FROM orders GROUP BY business_id, status
ON CONFLICT (business_id, entity, shard) DO UPDATE SET n = excluded.n;
--> statement-breakpoint
INSERT INTO order_daily_stats (business_id, day, shard, orders, paid_orders, revenue)
SELECT business_id, (created_at AT TIME ZONE 'UTC')::date, 0, count(*), count(*) FILTER (WHERE status <> 'CANCELLED'),
       coalesce(sum(amount) FILTER (WHERE status <> 'CANCELLED'), 0)
FROM orders GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO product_daily_sales (business_id, day, product_id, name, lines, quantity, revenue)
SELECT o.business_id, (o.created_at AT TIME ZONE 'UTC')::date, i.product_id, i.name, count(*), sum(i.quantity), sum(i.quantity::bigint * i.price)
FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.status <> 'CANCELLED'
GROUP BY 1, 2, 3, 4;
