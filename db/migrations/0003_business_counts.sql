CREATE TABLE "business_counts" (
	"business_id" text NOT NULL,
	"entity" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "business_counts_key" ON "business_counts" USING btree ("business_id","entity");