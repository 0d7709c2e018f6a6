CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"filename" text DEFAULT '' NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "businesses" ALTER COLUMN "type" SET DEFAULT 'RETAIL';--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "meta_description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "setup_guide_dismissed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "reply_body" text;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "reply_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "embed_settings" ADD COLUMN "placement" jsonb;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_business_created_idx" ON "files" USING btree ("business_id","created_at");--> statement-breakpoint
-- the storefront shows the shop's kind (its words: "Products" or "Menu") and its meta description:
-- a change of either bumps the content version, as a change of its name does (migration 0018)
DROP TRIGGER businesses_storefront ON businesses;
--> statement-breakpoint
CREATE TRIGGER businesses_storefront AFTER UPDATE OF name, slug, type, address, phone, email, currency, locale, timezone, meta_description ON businesses FOR EACH ROW
  WHEN ((OLD.name, OLD.slug, OLD.type, OLD.address, OLD.phone, OLD.email, OLD.currency, OLD.locale, OLD.timezone, OLD.meta_description) IS DISTINCT FROM (NEW.name, NEW.slug, NEW.type, NEW.address, NEW.phone, NEW.email, NEW.currency, NEW.locale, NEW.timezone, NEW.meta_description))
  EXECUTE FUNCTION storefront_bump_business();
