-- Datasets: bindings, encodings and materialized node and edge tables (PostgreSQL).
CREATE TABLE "datasets" (
    "id" TEXT NOT NULL,
    "author_id" INTEGER NOT NULL,
    "organization_id" INTEGER,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "agent_name" TEXT,
    "agent_version" TEXT,
    "node_files" TEXT NOT NULL DEFAULT '[]',
    "edge_files" TEXT NOT NULL DEFAULT '[]',
    "edge_hypergraph_transform" TEXT NOT NULL DEFAULT '[]',
    "node_encodings" TEXT NOT NULL,
    "edge_encodings" TEXT NOT NULL,
    "metadata" TEXT NOT NULL DEFAULT '{}',
    "compute" TEXT,
    "layout" TEXT,
    "node_count" INTEGER,
    "edge_count" INTEGER,
    "tables_schemas" TEXT NOT NULL DEFAULT '{}',
    "direct_sources" TEXT NOT NULL DEFAULT '{}',
    "report" TEXT NOT NULL DEFAULT '',
    "data_version" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "datasets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "datasets_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "datasets_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "datasets_author_id_idx" ON "datasets"("author_id");
CREATE INDEX "datasets_organization_id_idx" ON "datasets"("organization_id");
