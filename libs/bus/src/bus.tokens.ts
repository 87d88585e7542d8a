export const BUS_TRANSPORT = Symbol('BUS_TRANSPORT');
