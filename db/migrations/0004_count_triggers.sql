-- Keeps business_counts in step with orders, products, reviews and pages (list totals read it).
CREATE OR REPLACE FUNCTION business_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO business_counts (business_id, entity, n) VALUES (NEW.business_id, TG_TABLE_NAME, 1)
    ON CONFLICT (business_id, entity) DO UPDATE SET n = business_counts.n + 1;
    RETURN NEW;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE business_counts SET n = n - 1 WHERE business_id = OLD.business_id AND entity = TG_TABLE_NAME;
    RETURN OLD;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_count AFTER INSERT OR DELETE ON orders FOR EACH ROW EXECUTE FUNCTION business_counts_track();
--> statement-breakpoint
CREATE TRIGGER products_count AFTER INSERT OR DELETE ON products FOR EACH ROW EXECUTE FUNCTION business_counts_track();
--> statement-breakpoint
CREATE TRIGGER reviews_count AFTER INSERT OR DELETE ON reviews FOR EACH ROW EXECUTE FUNCTION business_counts_track();
--> statement-breakpoint
CREATE TRIGGER pages_count AFTER INSERT OR DELETE ON pages FOR EACH ROW EXECUTE FUNCTION business_counts_track();
--> statement-breakpoint
INSERT INTO business_counts (business_id, entity, n)
SELECT business_id, 'orders', count(*) FROM orders GROUP BY business_id
UNION ALL SELECT business_id, 'products', count(*) FROM products GROUP BY business_id
UNION ALL SELECT business_id, 'reviews', count(*) FROM reviews GROUP BY business_id
UNION ALL SELECT business_id, 'pages', count(*) FROM pages GROUP BY business_id
ON CONFLICT (business_id, entity) DO UPDATE SET n = excluded.n;
