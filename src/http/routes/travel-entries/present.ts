// The travel entry as the pull API returns it: the core's record with money as JSON numbers and
// the internals (import lock, reversal bookkeeping) left out.
import type { PerDiem, TravelEntry } from '../../../domain/travel-entries/index.js';
import type { ReferenceNames } from '../../../../projections/travel-entries/reference-names.js';
import { toNumber } from '../../schemas/money.js';

/**
 * Reads (GET, list) pass the current names of the entry's references (`referenceNames`): the
 * vehicle's registration number, make and model, each allocation's cost-center code and name (null
 * when the id names no cost center of the company any more). Entries folded outside the read
 * model (a state as of a revision) have no names to pass and show the ids only.
 */
export function presentTravelEntry(e: TravelEntry & { referenceNames?: ReferenceNames }) {
  const names = e.referenceNames;
  const vehicle = names && e.vehicleId ? names.vehicles.get(e.vehicleId.toLowerCase()) : undefined;
  return {
    id: e.id,
    entryNumber: e.entryNumber,
    entryDate: e.entryDate,
    employeeId: e.employeeId,
    departureDate: e.departureDate,
    returnDate: e.returnDate,
    departureLocation: e.departureLocation,
    departureLocationPlaceId: e.departureLocationPlaceId,
    destination: e.destination,
    destinationPlaceId: e.destinationPlaceId,
    destinationCountryCode: e.destinationCountryCode,
    travelType: e.travelType,
    purpose: e.purpose,
    report: e.report,
    preApprovalNote: e.preApprovalNote,
    vehicleId: e.vehicleId,
    ...(names ? { vehicle: e.vehicleId && vehicle ? { id: e.vehicleId, ...vehicle } : null } : {}),
    advancePayment: Number(e.advancePayment),
    currencyCode: e.currencyCode,
    advancePaymentDate: e.advancePaymentDate,
    manualAdvanceExchangeRate: toNumber(e.manualAdvanceExchangeRate),
    advancePaymentInBaseCurrency: Number(e.advancePaymentInBaseCurrency),
    advancePaymentExchangeRateSource: e.advancePaymentExchangeRateSource,
    status: e.status,
    statusReason: e.statusReason,
    locked: e.locked,
    isPaidOut: e.isPaidOut,
    paidOutAt: e.paidOutAt,
    payoutBatchId: e.payoutBatchId,
    // A comment is absent from approvals folded before session 23: null until a rebuild.
    approval: e.workflow && { ...e.workflow, approvals: e.workflow.approvals.map((a) => ({ ...a, comment: a.comment ?? null })) },
    expenses: e.expenses.map((x) => ({
      ...x,
      amount: Number(x.amount),
      manualExchangeRate: toNumber(x.manualExchangeRate),
      exchangeRate: toNumber(x.exchangeRate),
      amountInBaseCurrency: Number(x.amountInBaseCurrency),
    })),
    perDiems: e.perDiems.map(presentPerDiem),
    costCenterAllocations: e.costCenterAllocations.map((a) => {
      const costCenter = names?.costCenters.get(a.costCenterId.toLowerCase());
      return {
        ...a,
        share: Number(a.share),
        ...(names ? { costCenterCode: costCenter?.code ?? null, costCenterName: costCenter?.name ?? null } : {}),
      };
    }),
    attachments: e.attachments,
    createdAt: e.createdAt,
    editedAt: e.editedAt,
    exports: Object.entries(e.exports ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([system, x]) => ({ system, ...x })),
  };
}

/** A per diem with its statutory figures flattened beside it (all null on a row stored as given). */
function presentPerDiem(p: PerDiem) {
  const { statutory, ...row } = p;
  const s = statutory ?? null;
  return {
    ...row,
    amount: Number(p.amount),
    overrideAmount: toNumber(p.overrideAmount),
    manualExchangeRate: toNumber(p.manualExchangeRate),
    statutoryAmount: toNumber(s?.statutoryAmount ?? null),
    rate: toNumber(s?.rate ?? null),
    units: toNumber(s?.units ?? null),
    hours: toNumber(s?.hours ?? null),
    mealReduction: toNumber(s?.mealReduction ?? null),
    departureTimeLocal: s?.departureTimeLocal ?? null,
    arrivalTimeLocal: s?.arrivalTimeLocal ?? null,
    timeZone: s?.timeZone ?? null,
    exchangeRate: toNumber(s?.exchangeRate ?? null),
    exchangeRateDate: s?.exchangeRateDate ?? null,
    amountInBaseCurrency: toNumber(s?.amountInBaseCurrency ?? null),
    rule: s?.rule ?? null,
    rateTableRevision: s?.rateTableRevision ?? null,
  };
}
