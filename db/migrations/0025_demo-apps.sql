CREATE TABLE "demo_app_installations" (
	"app_slug" text NOT NULL,
	"business_id" text NOT NULL,
	"installation_id" text NOT NULL,
	"access_token_enc" text NOT NULL,
	"webhook_secret_enc" text NOT NULL,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "demo_app_installations_app_slug_business_id_pk" PRIMARY KEY("app_slug","business_id")
);
