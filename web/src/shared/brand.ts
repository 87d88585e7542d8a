/** The product's name, shown in the landing page, the sign-up title and the top bar. */
export const PRODUCT_NAME = 'SquadReviews';
