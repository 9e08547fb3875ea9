// Organization: a group of users that can own files and datasets.
import { builder } from "../builder.ts";

export const OrganizationRef = builder.prismaObject("Organization", {
  fields: (t) => ({
    id: t.exposeInt("id"),
    slug: t.exposeString("slug", { description: "The name clients pass as `org_name`." }),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});
