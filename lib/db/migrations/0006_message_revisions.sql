ALTER TABLE "messages" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "message_revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every insert or update of a message counts one more write to its session and stamps the row
-- with the count. Taking the session row's lock also orders a session's message writes, so a
-- row stamped lower was committed first: a reader that holds every row up to some stamp needs
-- only the rows stamped higher (lib/sessions/history-cache.ts).
-- A write to a session that is gone is left to fail on the foreign key, as it did before.
CREATE FUNCTION "stamp_message_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	stamp integer;
BEGIN
	UPDATE "sessions" SET "message_revision" = "message_revision" + 1
	WHERE "id" = NEW."session_id"
	RETURNING "message_revision" INTO stamp;
	NEW."revision" := coalesce(stamp, NEW."revision");
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "messages_revision" BEFORE INSERT OR UPDATE ON "messages"
FOR EACH ROW EXECUTE FUNCTION "stamp_message_revision"();
