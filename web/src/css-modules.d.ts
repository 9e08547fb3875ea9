// Stylesheets imported for their side effect (Vite bundles them into the page).
declare module "*.css";
