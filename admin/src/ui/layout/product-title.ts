/** A catalogue key: the product's name and line, the header's and the page title's. */
export const PRODUCT_TITLE = "app.productTitle";
