CREATE TABLE "storefront_versions" (
	"business_id" text PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "storefront_versions" ADD CONSTRAINT "storefront_versions_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Storefront content versions (issue 17, decision 021): every change to what storefront pages show
-- bumps its business's version in the change's own transaction; pages take their ETag from it.
-- A change that shows nothing new (an order taking one of 40 tracked items, a new access token)
-- bumps nothing: the order path stays off this table unless a product crosses what pages show.
CREATE OR REPLACE FUNCTION storefront_bump(ids text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO storefront_versions (business_id, version)
  SELECT b.id, 1 FROM businesses b WHERE b.id = ANY(ids) ORDER BY b.id
  ON CONFLICT (business_id) DO UPDATE SET version = storefront_versions.version + 1
$$;
--> statement-breakpoint
-- statement triggers of tables that name their business (products, reviews, pages, installations)
CREATE OR REPLACE FUNCTION storefront_bump_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM storefront_bump(array(SELECT DISTINCT business_id FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION storefront_bump_old_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM storefront_bump(array(SELECT DISTINCT business_id FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- row triggers of updates, filtered by their WHEN clause (evaluated without calling any function)
CREATE OR REPLACE FUNCTION storefront_bump_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM storefront_bump(array[NEW.business_id, OLD.business_id]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION storefront_bump_business() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM storefront_bump(array[NEW.id]);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- an embed's switch or settings: the business of its installation
CREATE OR REPLACE FUNCTION storefront_bump_embed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN ids := array[NEW.installation_id];
  ELSIF TG_OP = 'DELETE' THEN ids := array[OLD.installation_id];
  ELSE ids := array[NEW.installation_id, OLD.installation_id];
  END IF;
  PERFORM storefront_bump(array(SELECT business_id FROM installations WHERE id = ANY(ids)));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- an app's extensions (manifest sync) or listing name: every business where it is installed
CREATE OR REPLACE FUNCTION storefront_bump_extensions_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM storefront_bump(array(SELECT DISTINCT i.business_id FROM installations i WHERE i.status = 'ACTIVE' AND i.app_id IN (SELECT app_id FROM new_rows)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION storefront_bump_extensions_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM storefront_bump(array(SELECT DISTINCT i.business_id FROM installations i WHERE i.status = 'ACTIVE' AND i.app_id IN (SELECT app_id FROM old_rows)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION storefront_bump_app() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM storefront_bump(array(SELECT DISTINCT i.business_id FROM installations i WHERE i.status = 'ACTIVE' AND i.app_id = NEW.id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER businesses_storefront AFTER UPDATE OF name, slug, address, phone, email, currency, locale, timezone ON businesses FOR EACH ROW
  WHEN ((OLD.name, OLD.slug, OLD.address, OLD.phone, OLD.email, OLD.currency, OLD.locale, OLD.timezone) IS DISTINCT FROM (NEW.name, NEW.slug, NEW.address, NEW.phone, NEW.email, NEW.currency, NEW.locale, NEW.timezone))
  EXECUTE FUNCTION storefront_bump_business();
--> statement-breakpoint
CREATE TRIGGER products_storefront_insert AFTER INSERT ON products REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_bump_new_rows();
--> statement-breakpoint
CREATE TRIGGER products_storefront_delete AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_bump_old_rows();
--> statement-breakpoint
-- What a page shows of a product; of its stock only: untracked, 5 or more (LOW_STOCK_THRESHOLD,
-- storefront/checkout.server.ts: no count is shown), or the exact count below that ("Only 3 left",
-- "Sold out"). An order that takes one of 40 tracked items changes none of these and bumps nothing.
CREATE TRIGGER products_storefront_update AFTER UPDATE ON products FOR EACH ROW
  WHEN ((OLD.business_id, OLD.name, OLD.slug, OLD.description, OLD.category, OLD.image_url, OLD.price, OLD.status, OLD.is_available, OLD.created_at, least(coalesce(OLD.stock, -1), 5))
    IS DISTINCT FROM (NEW.business_id, NEW.name, NEW.slug, NEW.description, NEW.category, NEW.image_url, NEW.price, NEW.status, NEW.is_available, NEW.created_at, least(coalesce(NEW.stock, -1), 5)))
  EXECUTE FUNCTION storefront_bump_row();
--> statement-breakpoint
CREATE TRIGGER reviews_storefront_insert AFTER INSERT ON reviews REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_bump_new_rows();
--> statement-breakpoint
CREATE TRIGGER reviews_storefront_delete AFTER DELETE ON reviews REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_bump_old_rows();
--> statement-breakpoint
CREATE TRIGGER reviews_storefront_update AFTER UPDATE ON reviews FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION storefront_bump_row();
--> statement-breakpoint
CREATE TRIGGER pages_storefront_insert AFTER INSERT ON pages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_bump_new_rows();
--> statement-breakpoint
CREATE TRIGGER pages_storefront_delete AFTER DELETE ON pages REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_bump_old_rows();
--> statement-breakpoint
CREATE TRIGGER pages_storefront_update AFTER UPDATE ON pages FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION storefront_bump_row();
--> statement-breakpoint
CREATE TRIGGER installations_storefront_insert AFTER INSERT ON installations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_bump_new_rows();
--> statement-breakpoint
CREATE TRIGGER installations_storefront_delete AFTER DELETE ON installations REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_bump_old_rows();
--> statement-breakpoint
-- installs and uninstalls; a new token, re-consent or the app's own settings show nothing on the storefront
CREATE TRIGGER installations_storefront_update AFTER UPDATE ON installations FOR EACH ROW
  WHEN ((OLD.business_id, OLD.app_id, OLD.status, OLD.installed_at) IS DISTINCT FROM (NEW.business_id, NEW.app_id, NEW.status, NEW.installed_at))
  EXECUTE FUNCTION storefront_bump_row();
--> statement-breakpoint
CREATE TRIGGER embed_settings_storefront AFTER INSERT OR UPDATE OR DELETE ON embed_settings FOR EACH ROW EXECUTE FUNCTION storefront_bump_embed();
--> statement-breakpoint
CREATE TRIGGER extensions_storefront_insert AFTER INSERT ON extensions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_bump_extensions_new();
--> statement-breakpoint
CREATE TRIGGER extensions_storefront_update AFTER UPDATE ON extensions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_bump_extensions_new();
--> statement-breakpoint
CREATE TRIGGER extensions_storefront_delete AFTER DELETE ON extensions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_bump_extensions_old();
--> statement-breakpoint
CREATE TRIGGER apps_storefront AFTER UPDATE OF name, slug, icon_url ON apps FOR EACH ROW
  WHEN ((OLD.name, OLD.slug, OLD.icon_url) IS DISTINCT FROM (NEW.name, NEW.slug, NEW.icon_url))
  EXECUTE FUNCTION storefront_bump_app();
