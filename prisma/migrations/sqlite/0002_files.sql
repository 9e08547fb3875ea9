-- Files: uploads and the schemas of the tables parsed from them (SQLite).
CREATE TABLE "files" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "author_id" INTEGER NOT NULL,
    "organization_id" INTEGER,
    "name" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "file_type" TEXT NOT NULL,
    "file_compression" TEXT NOT NULL DEFAULT '',
    "parser_options" TEXT NOT NULL DEFAULT '{}',
    "sql_transforms" TEXT,
    "agent_name" TEXT NOT NULL DEFAULT '',
    "agent_version" TEXT NOT NULL DEFAULT '',
    "bytes_count" BIGINT,
    "is_uploaded" BOOLEAN NOT NULL DEFAULT false,
    "is_valid" BOOLEAN NOT NULL DEFAULT false,
    "errors" TEXT NOT NULL DEFAULT '{}',
    "tables_schemas" TEXT NOT NULL DEFAULT '[]',
    "data_version" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "files_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "files_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "files_author_id_idx" ON "files"("author_id");
CREATE INDEX "files_organization_id_idx" ON "files"("organization_id");
