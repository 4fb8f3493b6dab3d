CREATE TABLE "identities" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"generation" integer NOT NULL,
	"rotated_at" timestamp with time zone DEFAULT now() NOT NULL
);
