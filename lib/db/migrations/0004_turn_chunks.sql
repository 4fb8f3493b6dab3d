CREATE TABLE "turn_chunks" (
	"turn_id" text NOT NULL,
	"seq" integer NOT NULL,
	"session_id" text NOT NULL,
	"chunks" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "turn_chunks_turn_id_seq_pk" PRIMARY KEY("turn_id","seq")
);
--> statement-breakpoint
ALTER TABLE "turn_chunks" ADD CONSTRAINT "turn_chunks_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "turn_chunks_session_idx" ON "turn_chunks" USING btree ("session_id");