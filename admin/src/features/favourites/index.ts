export { FavouritesCard } from "./favourites-card";
export { FavouritesLimitInput } from "./favourites-limit-input";
export { useHasFavourites } from "./use-favourites";
