export { FavouritesWithPhotos } from "./favourites-card";
export { FavouritesLimitInput } from "./favourites-limit-input";
