CREATE TABLE "product_window_sales" (
	"business_id" text NOT NULL,
	"product_id" text NOT NULL,
	"lines" integer DEFAULT 0 NOT NULL,
	"quantity" bigint DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_windows" (
	"business_id" text PRIMARY KEY NOT NULL,
	"from_day" date NOT NULL,
	"moved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "product_window_sales_key" ON "product_window_sales" USING btree ("business_id","product_id");--> statement-breakpoint
CREATE INDEX "product_window_sales_rank" ON "product_window_sales" USING btree ("business_id","quantity" DESC NULLS FIRST,"revenue" DESC NULLS FIRST,"product_id") WHERE lines > 0;--> statement-breakpoint
-- Decision 090: the dashboards' top products of the last 30 days read product_window_sales, each
-- product's sales from the business's product_windows.from_day on, kept by the triggers that keep
-- product_daily_sales, in the same transactions. Every change of a business's sales takes the
-- advisory lock ('product-window', business) shared before it reads from_day; building or moving the
-- window (product_window_move, the analytics__move_product_windows job) takes it alone, so that a
-- change is counted exactly once: by the trigger (from_day already set) or by the build (it reads the
-- committed daily rows after the change's transaction ended).
CREATE FUNCTION product_window_from(b text) RETURNS date LANGUAGE plpgsql AS $$
DECLARE
  f date;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext('product-window'), hashtext(b));
  SELECT from_day INTO f FROM product_windows WHERE business_id = b;
  RETURN f;
END $$;
--> statement-breakpoint
-- Builds (none yet, moved back, or more than 7 days behind) or moves the window of a business to
-- start on `to_day`: moving forward takes the daily rows of the days left behind out.
CREATE FUNCTION product_window_move(b text, to_day date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  f date;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('product-window'), hashtext(b));
  SELECT from_day INTO f FROM product_windows WHERE business_id = b;
  IF f = to_day THEN
    RETURN;
  END IF;
  IF f IS NULL OR to_day < f OR to_day - f > 7 THEN
    DELETE FROM product_window_sales WHERE business_id = b;
    INSERT INTO product_window_sales (business_id, product_id, lines, quantity, revenue)
    SELECT b, product_id, sum(lines), sum(quantity), sum(revenue) FROM product_daily_sales
    WHERE business_id = b AND day >= to_day AND lines > 0 GROUP BY product_id ORDER BY product_id;
  ELSE
    WITH gone AS (
      SELECT product_id, sum(lines) AS lines, sum(quantity) AS quantity, sum(revenue) AS revenue FROM product_daily_sales
      WHERE business_id = b AND day >= f AND day < to_day AND lines > 0 GROUP BY product_id
    ), taken AS (
      UPDATE product_window_sales w SET lines = w.lines - g.lines, quantity = w.quantity - g.quantity, revenue = w.revenue - g.revenue
      FROM gone g WHERE w.business_id = b AND w.product_id = g.product_id
      RETURNING w.product_id, w.lines
    )
    DELETE FROM product_window_sales w USING taken t
    WHERE w.business_id = b AND w.product_id = t.product_id AND t.lines = 0;
  END IF;
  INSERT INTO product_windows (business_id, from_day, moved_at) VALUES (b, to_day, now())
  ON CONFLICT (business_id) DO UPDATE SET from_day = excluded.from_day, moved_at = excluded.moved_at;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_rollups_apply(o orders, sign integer, with_lines boolean, fixed_shard integer DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k integer := coalesce(fixed_shard, floor(random() * 8)::int);
  paid boolean := o.status <> 'CANCELLED';
  d date := (o.created_at AT TIME ZONE 'UTC')::date;
  w date;
BEGIN
  INSERT INTO business_counts (business_id, entity, shard, n) VALUES (o.business_id, 'orders:' || o.status, k, sign)
  ON CONFLICT (business_id, entity, shard) DO UPDATE SET n = business_counts.n + excluded.n;
  INSERT INTO order_daily_stats (business_id, day, shard, orders, paid_orders, revenue)
  VALUES (o.business_id, d, k, sign, CASE WHEN paid THEN sign ELSE 0 END, CASE WHEN paid THEN sign * o.amount ELSE 0 END)
  ON CONFLICT (business_id, day, shard) DO UPDATE SET orders = order_daily_stats.orders + excluded.orders,
    paid_orders = order_daily_stats.paid_orders + excluded.paid_orders, revenue = order_daily_stats.revenue + excluded.revenue;
  IF with_lines AND paid THEN
    w := product_window_from(o.business_id);
    INSERT INTO product_daily_sales (business_id, day, product_id, name, lines, quantity, revenue)
    SELECT o.business_id, d, i.product_id, i.name, sign * count(*), sign * sum(i.quantity), sign * sum(i.quantity::bigint * i.price)
    FROM order_items i WHERE i.order_id = o.id GROUP BY i.product_id, i.name ORDER BY i.product_id, i.name
    ON CONFLICT (business_id, day, product_id, name) DO UPDATE SET lines = product_daily_sales.lines + excluded.lines,
      quantity = product_daily_sales.quantity + excluded.quantity, revenue = product_daily_sales.revenue + excluded.revenue;
    IF d >= w THEN
      INSERT INTO product_window_sales (business_id, product_id, lines, quantity, revenue)
      SELECT o.business_id, i.product_id, sign * count(*), sign * sum(i.quantity), sign * sum(i.quantity::bigint * i.price)
      FROM order_items i WHERE i.order_id = o.id GROUP BY i.product_id ORDER BY i.product_id
      ON CONFLICT (business_id, product_id) DO UPDATE SET lines = product_window_sales.lines + excluded.lines,
        quantity = product_window_sales.quantity + excluded.quantity, revenue = product_window_sales.revenue + excluded.revenue;
    END IF;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_item_rollups_apply(item order_items, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  o orders;
  d date;
  w date;
BEGIN
  -- a line deleted with its order (the cascade) finds no order: the order's BEFORE DELETE took it out
  SELECT * INTO o FROM orders WHERE id = item.order_id;
  IF FOUND AND o.status <> 'CANCELLED' THEN
    d := (o.created_at AT TIME ZONE 'UTC')::date;
    w := product_window_from(o.business_id);
    INSERT INTO product_daily_sales (business_id, day, product_id, name, lines, quantity, revenue)
    VALUES (o.business_id, d, item.product_id, item.name, sign, sign * item.quantity, sign * item.quantity::bigint * item.price)
    ON CONFLICT (business_id, day, product_id, name) DO UPDATE SET lines = product_daily_sales.lines + excluded.lines,
      quantity = product_daily_sales.quantity + excluded.quantity, revenue = product_daily_sales.revenue + excluded.revenue;
    IF d >= w THEN
      INSERT INTO product_window_sales (business_id, product_id, lines, quantity, revenue)
      VALUES (o.business_id, item.product_id, sign, sign * item.quantity, sign * item.quantity::bigint * item.price)
      ON CONFLICT (business_id, product_id) DO UPDATE SET lines = product_window_sales.lines + excluded.lines,
        quantity = product_window_sales.quantity + excluded.quantity, revenue = product_window_sales.revenue + excluded.revenue;
    END IF;
  END IF;
END $$;
